import { summarize, type LatencySummary } from './bench-stats';
import type { BenchLine } from './bench-fixtures';
import type { BenchSwitchClient } from './bench-http';

export interface IngestionSettings {
  calls: number;
  batch: number;
  concurrency: number;
  runTag: string;
  now: Date;
}

export interface IngestionResult {
  calls: number;
  batch: number;
  concurrency: number;
  seconds: number;
  callsPerSecond: number;
  stored: number;
  withCommission: number;
  batchLatencyMs: LatencySummary;
}

const CALLERS = 3_000;
const SPREAD_MS = 6 * 3600_000;

/**
 * `calls` new records to the real service: batches of `batch`, `concurrency` of them in flight, every
 * call_id new. Calls go to the static numbers of all customers, answered 85 %, durations 0–299 s,
 * from 3,000 callers, so the pricing conditions and the unique-caller rule both decide.
 */
export async function measureIngestion(
  clients: readonly BenchSwitchClient[],
  lines: readonly BenchLine[],
  settings: IngestionSettings,
): Promise<IngestionResult> {
  const batches: unknown[][] = [];
  for (let first = 0; first < settings.calls; first += settings.batch) {
    const size = Math.min(settings.batch, settings.calls - first);
    batches.push(Array.from({ length: size }, (_, i) => callRecord(first + i, lines, settings)));
  }
  let next = 0;
  let stored = 0;
  let withCommission = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.slice(0, settings.concurrency).map(async (client) => {
      while (next < batches.length) {
        const records = batches[next++]!;
        const sent = process.hrtime.bigint();
        const result = await client.postCdrs(records);
        latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
        const body = result.json() as { cdrs?: { commission: string | null }[]; errors?: unknown[] };
        if (result.status !== 200 || body.cdrs?.length !== records.length)
          throw new Error(`ingestion: status ${result.status} ${result.text.slice(0, 300)}`);
        stored += body.cdrs.length;
        withCommission += body.cdrs.filter((cdr) => cdr.commission !== null).length;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    calls: settings.calls,
    batch: settings.batch,
    concurrency: settings.concurrency,
    seconds,
    callsPerSecond: settings.calls / seconds,
    stored,
    withCommission,
    batchLatencyMs: summarize(latencies),
  };
}

function callRecord(
  index: number,
  lines: readonly BenchLine[],
  settings: IngestionSettings,
): Record<string, unknown> {
  // A cheap deterministic scramble, so runs are comparable and the mix is not in lockstep with the index.
  const h = Math.imul(index + 1, 2654435761) >>> 0;
  const line = lines[h % lines.length]!;
  const answered = h % 100 >= 15;
  const start = new Date(settings.now.getTime() - (h % SPREAD_MS));
  return {
    call_id: `bench-${settings.runTag}-${index}`,
    anum: `+4790${String(1_000_000 + ((h >>> 7) % CALLERS)).slice(1)}`,
    bnum: line.bnum,
    start: start.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    duration: answered ? (h >>> 3) % 300 : 0,
    answered: answered ? 1 : 0,
    voicemail: !answered && h % 3 === 0 ? 1 : 0,
  };
}
