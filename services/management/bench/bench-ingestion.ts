import { encodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';
import type { Redis } from 'ioredis';
import { summarize, type LatencySummary } from './bench-stats';
import type { BenchLine } from './bench-fixtures';
import type { BenchSwitchClient } from './bench-http';
import type { CpuPerCall } from './bench-cpu';

export interface IngestionSettings {
  calls: number;
  batch: number;
  concurrency: number;
  runTag: string;
  now: Date;
}

/** Where the bench's DNI calls go, and where replacement would have written their attributions. */
export interface BenchDni {
  poolNumbers: readonly string[];
  redis: Redis;
  keyPrefix: string;
  advId: string;
}

export interface IngestionResult {
  calls: number;
  batch: number;
  concurrency: number;
  seconds: number;
  callsPerSecond: number;
  stored: number;
  withCommission: number;
  /** Calls to pool numbers, each with a DNI session's attribution (a gclid and a GA4 client id). */
  dniCalls: number;
  batchLatencyMs: LatencySummary;
}

export interface SingleCallResult {
  calls: number;
  ratePerSecond: number;
  /** Client-observed, from sending the one-record request to its complete answer. */
  latencyMs: LatencySummary;
  /** The same, of the untimed warm-up calls before (null without a warm-up). */
  warmUp: { calls: number; latencyMs: LatencySummary } | null;
  /** What the measured calls cost (bench-cpu.ts), the deliveries they set off included. */
  cpu: CpuPerCall;
}

const CALLERS = 3_000;
const SPREAD_MS = 6 * 3600_000;
/** One call in four is a DNI call on a pool number. */
const DNI_SHARE = 4;

/**
 * `calls` new records to the real service: batches of `batch`, `concurrency` of them in flight, every
 * call_id new. Calls go to the static numbers of all customers and (one in four) to pool numbers
 * whose attribution names a source, a customer, a gclid and a GA4 client id; answered 85 %,
 * durations 0–299 s, from 3,000 callers, so the pricing conditions, the unique-caller rule, missed-call
 * e-mails, webhooks and conversions all take part. The attributions are written before the clock starts.
 */
export async function measureIngestion(
  clients: readonly BenchSwitchClient[],
  lines: readonly BenchLine[],
  dni: BenchDni,
  settings: IngestionSettings,
): Promise<IngestionResult> {
  const batches: Array<Array<Record<string, unknown>>> = [];
  const attributions: CallAttribution[] = [];
  for (let first = 0; first < settings.calls; first += settings.batch) {
    const size = Math.min(settings.batch, settings.calls - first);
    batches.push(
      Array.from({ length: size }, (_, i) => {
        const { record, attribution } = benchCall(first + i, lines, dni, settings);
        if (attribution !== null) attributions.push(attribution);
        return record;
      }),
    );
  }
  await writeAttributions(dni, attributions);
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
    dniCalls: attributions.length,
    batchLatencyMs: summarize(latencies),
  };
}

/**
 * Calls posted one at a time, as a switch posts each call when it ends: `calls` one-record requests
 * at a fixed `ratePerSecond` (sent on schedule whether or not the previous one has been answered),
 * the same mix as the batches, after `warmUpSeconds` of the same load untimed (connections, pools,
 * compiled code and each connection's prepared statements warm up: a phase's first seconds otherwise
 * hold its slowest calls). Each answer must be 201.
 */
export async function measureSingleCalls(
  clients: readonly BenchSwitchClient[],
  lines: readonly BenchLine[],
  dni: BenchDni,
  settings: { calls: number; ratePerSecond: number; warmUpSeconds: number; runTag: string; now: Date },
  meter: () => Promise<{ stop(calls: number): Promise<CpuPerCall> }>,
): Promise<SingleCallResult> {
  const warmUpCalls = Math.ceil(settings.ratePerSecond * settings.warmUpSeconds);
  const warmUp =
    warmUpCalls === 0
      ? null
      : await postOneByOne(clients, lines, dni, {
          ...settings,
          calls: warmUpCalls,
          runTag: `${settings.runTag}-warm`,
        });
  const counting = await meter();
  const latencies = await postOneByOne(clients, lines, dni, settings);
  return {
    calls: settings.calls,
    ratePerSecond: settings.ratePerSecond,
    latencyMs: summarize(latencies),
    warmUp: warmUp === null ? null : { calls: warmUpCalls, latencyMs: summarize(warmUp) },
    cpu: await counting.stop(settings.calls),
  };
}

/** The single calls on their schedule; the client-observed latency of each, in ms. */
async function postOneByOne(
  clients: readonly BenchSwitchClient[],
  lines: readonly BenchLine[],
  dni: BenchDni,
  settings: { calls: number; ratePerSecond: number; runTag: string; now: Date },
): Promise<number[]> {
  const calls = Array.from({ length: settings.calls }, (_, i) =>
    benchCall(i, lines, dni, { ...settings, batch: 1, concurrency: 1 }),
  );
  await writeAttributions(
    dni,
    calls.flatMap(({ attribution }) => (attribution === null ? [] : [attribution])),
  );
  const latencies: number[] = [];
  const intervalNs = 1e9 / settings.ratePerSecond;
  const started = process.hrtime.bigint();
  const free = [...clients];
  const waiting: Array<() => void> = [];
  const client = async (): Promise<BenchSwitchClient> => {
    const idle = free.pop();
    if (idle !== undefined) return idle;
    return new Promise((resolve) => waiting.push(() => resolve(free.pop()!)));
  };
  const sent: Array<Promise<void>> = [];
  for (const [i, { record }] of calls.entries()) {
    const due = started + BigInt(Math.round(i * intervalNs));
    const wait = Number(due - process.hrtime.bigint()) / 1e6;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const call = (async () => {
      const connection = await client();
      const at = process.hrtime.bigint();
      try {
        const result = await connection.postCdrs(record);
        latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
        if (result.status !== 201)
          throw new Error(`single call: status ${result.status} ${result.text.slice(0, 300)}`);
      } finally {
        free.push(connection);
        waiting.shift()?.();
      }
    })();
    // Handled at once and still rethrown by Promise.all below: a failed call while later ones are
    // being scheduled must not end the process before the service and its database are cleaned up.
    call.catch(() => undefined);
    sent.push(call);
  }
  await Promise.all(sent);
  return latencies;
}

function benchCall(
  index: number,
  lines: readonly BenchLine[],
  dni: BenchDni,
  settings: IngestionSettings,
): { record: Record<string, unknown>; attribution: CallAttribution | null } {
  // A cheap deterministic scramble, so runs are comparable and the mix is not in lockstep with the index.
  const h = Math.imul(index + 1, 2654435761) >>> 0;
  const line = lines[h % lines.length]!;
  const answered = h % 100 >= 15;
  const start = new Date(settings.now.getTime() - (h % SPREAD_MS));
  const isDni = (h >>> 11) % DNI_SHARE === 0;
  const callId = `bench-${settings.runTag}-${index}`;
  const anum = `+4790${String(1_000_000 + ((h >>> 7) % CALLERS)).slice(1)}`;
  const bnum = isDni ? dni.poolNumbers[(h >>> 5) % dni.poolNumbers.length]! : line.bnum;
  const record = {
    call_id: callId,
    anum,
    bnum,
    start: start.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    duration: answered ? (h >>> 3) % 300 : 0,
    answered: answered ? 1 : 0,
    voicemail: !answered && h % 3 === 0 ? 1 : 0,
  };
  if (!isDni) return { record, attribution: null };
  const boundAt = start.getTime() - 90_000;
  return {
    record,
    attribution: {
      callId,
      advId: dni.advId,
      anum,
      bnum,
      at: start.toISOString(),
      action: 'dial',
      target: null,
      sourceId: line.sourceId,
      customerId: null,
      vmGreetingId: null,
      sessionId: `bench-session-${h % 100_000}`,
      trackingId: `bench-visitor-${h % 50_000}`,
      fullUrl: `https://ads.bench.example/item/${h % 10_000}`,
      fullReferrer: 'https://www.google.com/',
      custnr: line.custnr,
      parameters: { gclid: `bench-gclid-${index}`, ga_client_id: `${h % 1_000_000}.${index}` },
      quarantined: false,
      kind: 'session',
      boundAt,
    },
  };
}

/** As replacement's /telephony/route writes them, a day's expiry. */
async function writeAttributions(dni: BenchDni, attributions: readonly CallAttribution[]): Promise<void> {
  const keys = partnerKeys(dni.keyPrefix, dni.advId);
  for (let first = 0; first < attributions.length; first += 1_000) {
    const pipeline = dni.redis.pipeline();
    for (const attribution of attributions.slice(first, first + 1_000))
      pipeline.set(keys.call(attribution.callId), encodeCallAttribution(attribution), 'EX', 86_400);
    await pipeline.exec();
  }
}
