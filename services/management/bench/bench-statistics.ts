import { summarize, type LatencySummary } from './bench-stats';
import type { BenchDigestClient } from './bench-http';

export interface PageCase {
  name: string;
  query: string;
  /** What the answer must say, so a fast wrong answer cannot pass. */
  expect: { total: number; records: number };
}

export interface PageResult extends LatencySummary {
  name: string;
  path: string;
  total: number;
  records: number;
  bytes: number;
}

/** Each case: one untimed request (connection, plan cache), then `runs` timed ones in turn. */
export async function measurePages(
  client: BenchDigestClient,
  cases: readonly PageCase[],
  runs: number,
): Promise<PageResult[]> {
  for (const pageCase of cases) await fetchPage(client, pageCase);
  const samples = new Map<string, number[]>(cases.map((pageCase) => [pageCase.name, []]));
  const last = new Map<string, { total: number; records: number; bytes: number }>();
  // Round-robin over the cases, so a disturbance from elsewhere falls on all of them alike.
  for (let run = 0; run < runs; run++) {
    for (const pageCase of cases) {
      const started = process.hrtime.bigint();
      const page = await fetchPage(client, pageCase);
      samples.get(pageCase.name)!.push(Number(process.hrtime.bigint() - started) / 1e6);
      last.set(pageCase.name, page);
    }
  }
  return cases.map((pageCase) => ({
    name: pageCase.name,
    path: `/statistics/cdrs?${pageCase.query}`,
    ...last.get(pageCase.name)!,
    ...summarize(samples.get(pageCase.name)!),
  }));
}

async function fetchPage(
  client: BenchDigestClient,
  pageCase: PageCase,
): Promise<{ total: number; records: number; bytes: number }> {
  const result = await client.get(`/statistics/cdrs?${pageCase.query}`);
  if (result.status !== 200)
    throw new Error(`${pageCase.name}: status ${result.status} ${result.text.slice(0, 300)}`);
  const body = result.json() as { total: number; cdrs: unknown[] };
  const page = { total: body.total, records: body.cdrs.length, bytes: Buffer.byteLength(result.text) };
  if (page.total !== pageCase.expect.total || page.records !== pageCase.expect.records)
    throw new Error(
      `${pageCase.name}: expected ${JSON.stringify(pageCase.expect)}, got total ${page.total}, ${page.records} records`,
    );
  return page;
}
