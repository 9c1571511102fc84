import type { BenchDigestClient } from './bench-http';
import { summarize, type LatencySummary } from './bench-stats';

/** The month the report customer's records are loaded into: Europe/Oslo, with the autumn change. */
export const REPORT_MONTH = '2025-10';
export const REPORT_MONTH_SPAN = {
  first: new Date('2025-09-30T22:00:00Z'),
  // 745 hours; the last record one second before the month ends.
  seconds: 745 * 3600 - 1,
};

export interface ReportResult extends LatencySummary {
  path: string;
  calls: number;
  bytes: number;
}

/**
 * What `bulkLoadCdrs` writes for records 1..count: every fifth unanswered, a third of the others
 * with a commission of 25.00 (g % 3 = 0 and g % 5 ≠ 0), no recordings.
 */
export function expectedReport(count: number): {
  calls: string;
  answered: string;
  leads: string;
  commission: string;
} {
  const leads = Math.floor(count / 3) - Math.floor(count / 15);
  return {
    calls: String(count),
    answered: String(count - Math.floor(count / 5)),
    leads: String(leads),
    commission: `${leads * 25}.00`,
  };
}

/** One untimed request, then `runs` timed ones; each answer's totals are checked. */
export async function measureReport(
  client: BenchDigestClient,
  customerId: string,
  count: number,
  runs: number,
): Promise<ReportResult> {
  const path = `/v1/customers/${customerId}/reports/monthly?month=${REPORT_MONTH}`;
  const expected = expectedReport(count);
  const fetchReport = async () => {
    const result = await client.get(path);
    if (result.status !== 200)
      throw new Error(`report: status ${result.status} ${result.text.slice(0, 300)}`);
    const report = (result.json() as { reports: Array<Record<string, unknown>> }).reports[0]!;
    for (const [field, value] of Object.entries(expected)) {
      if (report[field] !== value)
        throw new Error(`report: ${field} ${String(report[field])}, expected ${value}`);
    }
    if ((report.days as unknown[]).length !== 31) throw new Error('report: expected 31 days');
    return Buffer.byteLength(result.text);
  };
  await fetchReport();
  const samples: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    bytes = await fetchReport();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { path, calls: count, bytes, ...summarize(samples) };
}
