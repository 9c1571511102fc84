import { sumMoney } from '@trackline/domain';
import type { OutcomeFigureRow } from '../cdrs/cdr-outcomes.store';
import { assembleOutcomes } from './report-outcomes';
import type { ReportSourceName } from '../sources/source';
import type { MonthlyReport, ReportFigureRow, ReportSourceLine } from './monthly-report';

/**
 * The report from the store's per-day, per-source sums. Every day of the month is listed (zeros
 * included) so a chart needs no gaps filled; sources are the customer's open ones and any other
 * that had calls in the month, in id order. Calls without a source count in the totals and days.
 */
export function assembleReport(input: {
  customerId: string;
  month: string;
  timeZone: string;
  days: readonly string[];
  rows: readonly ReportFigureRow[];
  sources: readonly ReportSourceName[];
  /** The month's outcome figures; none when left out. */
  outcomes?: readonly OutcomeFigureRow[];
}): MonthlyReport {
  const byDay = new Map(input.days.map((date) => [date, { date, calls: 0, answered: 0 }]));
  const bySource = new Map<string, ReportSourceLine & { amounts: string[] }>();
  const line = (sourceId: string, name: string) => {
    let found = bySource.get(sourceId);
    if (found === undefined) {
      found = { sourceId, name, calls: 0, answered: 0, leads: 0, commission: '0.00', amounts: [] };
      bySource.set(sourceId, found);
    }
    return found;
  };
  for (const source of input.sources) if (source.active) line(source.sourceId, source.name);
  const names = new Map(input.sources.map((source) => [source.sourceId, source.name]));

  const totals = { calls: 0, answered: 0, voicemails: 0, leads: 0 };
  const amounts: string[] = [];
  for (const row of input.rows) {
    totals.calls += row.calls;
    totals.answered += row.answered;
    totals.voicemails += row.voicemails;
    totals.leads += row.leads;
    amounts.push(row.commission);
    const day = byDay.get(row.date);
    if (day !== undefined) {
      day.calls += row.calls;
      day.answered += row.answered;
    }
    if (row.sourceId === '0') continue;
    const source = line(row.sourceId, names.get(row.sourceId) ?? `Source ${row.sourceId}`);
    source.calls += row.calls;
    source.answered += row.answered;
    source.leads += row.leads;
    source.amounts.push(row.commission);
  }
  const sources = [...bySource.values()]
    .sort((a, b) => (BigInt(a.sourceId) < BigInt(b.sourceId) ? -1 : 1))
    .map(({ amounts: sourceAmounts, ...source }) => ({ ...source, commission: sumMoney(sourceAmounts) }));
  return {
    customerId: input.customerId,
    month: input.month,
    timeZone: input.timeZone,
    calls: totals.calls,
    answered: totals.answered,
    missed: totals.calls - totals.answered - totals.voicemails,
    voicemails: totals.voicemails,
    leads: totals.leads,
    commission: sumMoney(amounts),
    sources,
    days: [...byDay.values()],
    outcomes: assembleOutcomes(input.outcomes ?? []),
  };
}
