import { canonicalAmount, OUTCOME_STATUSES, type OutcomeStatus } from '@trackline/domain';
import type { OutcomeFigureRow } from '../cdrs/cdr-outcomes.store';

/** One outcome status in a month: its calls, and their values summed per currency. */
export interface ReportOutcomeLine {
  status: OutcomeStatus;
  calls: number;
  /** Per currency, in code order; values are decimal strings. Outcomes without a value count in `calls` only. */
  sums: { currency: string; value: string }[];
}

/**
 * The month's outcomes (docs/reports.md, Outcomes): every status, zeros included, in the order the
 * statuses are documented. Values in different currencies are never added together.
 */
export function assembleOutcomes(rows: readonly OutcomeFigureRow[]): ReportOutcomeLine[] {
  return OUTCOME_STATUSES.map((status) => {
    const mine = rows.filter((row) => row.status === status);
    return {
      status,
      calls: mine.reduce((total, row) => total + row.calls, 0),
      sums: mine
        .filter(
          (row): row is OutcomeFigureRow & { currency: string; value: string } =>
            row.currency !== null && row.value !== null,
        )
        .sort((a, b) => (a.currency < b.currency ? -1 : 1))
        .map((row) => ({ currency: row.currency, value: canonicalAmount(row.value) })),
    };
  });
}
