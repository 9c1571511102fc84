import autocannon from 'autocannon';
import { percentile, serverTimingMs } from './bench-stats';

/** One replacement request as a partner sends it: exact body bytes and their signature. */
export interface SignedRequest {
  body: Buffer;
  signature: string;
}

export interface LoadSettings {
  baseUrl: string;
  /** Cycled in order across all connections; one entry means the same request every time. */
  requests: SignedRequest[];
  connections: number;
  durationSeconds: number;
  /** Offered requests/s over all connections; unset = as fast as the server answers (saturation). */
  overallRate?: number;
}

/** What one autocannon run saw, kept raw so several rounds can be pooled. */
export interface RawLoad {
  durationSeconds: number;
  requests: number;
  /** Responses with `"success":true`. */
  succeeded: number;
  /** success:false answers by status and error text, plus transport errors and timeouts. */
  failures: Record<string, number>;
  /** Client-observed time of every response, ms: request written to response complete. */
  latencies: number[];
  /** Server-Timing app;dur of every response, ms. */
  processing: number[];
}

export interface LoadResult {
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  succeeded: number;
  failures: Record<string, number>;
  latency: Percentiles;
  processing: Percentiles;
}

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** Drives one server with autocannon and reads every response's body, latency and Server-Timing header. */
export async function runLoad(settings: LoadSettings): Promise<RawLoad> {
  const raw: RawLoad = {
    durationSeconds: 0,
    requests: 0,
    succeeded: 0,
    failures: {},
    latencies: [],
    processing: [],
  };
  let next = 0;

  const onResponse = (
    status: number,
    body: string,
    _context: object,
    headers: Record<string, unknown> = {},
  ): void => {
    const timing = serverTimingMs(headers['Server-Timing'] ?? headers['server-timing']);
    if (timing !== null) raw.processing.push(timing);
    // The seed's success body starts with this exact text; anything else is parsed for its error.
    if (status === 200 && body.startsWith('{"success":true')) {
      raw.succeeded += 1;
      return;
    }
    const reason = `${status} ${failureText(body)}`;
    raw.failures[reason] = (raw.failures[reason] ?? 0) + 1;
  };

  const pick = (): SignedRequest => {
    const request = settings.requests[next % settings.requests.length]!;
    next += 1;
    return request;
  };
  const toRequest = ({ body, signature }: SignedRequest): autocannon.Request => ({
    method: 'POST',
    path: '/dynamic-numbers',
    headers: { 'content-type': 'application/json', 'x-sign': signature },
    body,
  });
  const handler = onResponse as autocannon.Request['onResponse'];
  const requests: autocannon.Request[] =
    settings.requests.length === 1
      ? [{ ...toRequest(settings.requests[0]!), onResponse: handler }]
      : [
          {
            ...toRequest(settings.requests[0]!),
            // A shared cursor: concurrent connections walk one list instead of each replaying it from the start.
            setupRequest: (request) => ({ ...request, ...toRequest(pick()) }),
            onResponse: handler,
          },
        ];

  const instance = autocannon({
    url: settings.baseUrl,
    connections: settings.connections,
    duration: settings.durationSeconds,
    overallRate: settings.overallRate,
    requests,
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>; // without a callback: a thenable instance
  // The raw time of each response. autocannon's own histogram, at a fixed rate, adds made-up samples
  // for every response slower than 1 ms (its coordinated-omission correction assumes one request per
  // ms per connection), which is not what a partner observes.
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    raw.latencies.push(responseTime);
  });
  const result = await instance;

  raw.durationSeconds = result.duration;
  raw.requests = result.requests.total;
  if (result.errors > 0) raw.failures['transport errors'] = result.errors;
  if (result.timeouts > 0) raw.failures['timeouts'] = result.timeouts;
  return raw;
}

/** Pools rounds of the same phase: totals add up, percentiles are taken over every response. */
export function summarizeLoads(rounds: RawLoad[]): LoadResult {
  const failures: Record<string, number> = {};
  for (const round of rounds) {
    for (const [reason, count] of Object.entries(round.failures))
      failures[reason] = (failures[reason] ?? 0) + count;
  }
  const durationSeconds = rounds.reduce((sum, r) => sum + r.durationSeconds, 0);
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  return {
    durationSeconds,
    requests,
    requestsPerSecond: durationSeconds === 0 ? 0 : requests / durationSeconds,
    succeeded: rounds.reduce((sum, r) => sum + r.succeeded, 0),
    failures,
    latency: percentiles(rounds.flatMap((r) => r.latencies)),
    processing: percentiles(rounds.flatMap((r) => r.processing)),
  };
}

function percentiles(values: number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? NaN : sorted[sorted.length - 1]!,
    samples: sorted.length,
  };
}

function failureText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : body.slice(0, 80);
  } catch {
    return body.slice(0, 80);
  }
}
