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

export interface LoadResult {
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  /** Responses with `"success":true`. */
  succeeded: number;
  /** success:false answers by error text, plus transport errors and timeouts. */
  failures: Record<string, number>;
  /** Client-observed latency (autocannon), ms. */
  latency: { p50: number; p99: number; max: number };
  /** Server-Timing app;dur of every response, ms. */
  processing: { p50: number; p99: number; max: number; samples: number };
}

/** Drives one server with autocannon and reads every response's body and Server-Timing header. */
export async function runLoad(settings: LoadSettings): Promise<LoadResult> {
  const processing: number[] = [];
  const failures: Record<string, number> = {};
  let succeeded = 0;
  let next = 0;

  const onResponse = (
    status: number,
    body: string,
    _context: object,
    headers: Record<string, unknown> = {},
  ): void => {
    const timing = serverTimingMs(headers['Server-Timing'] ?? headers['server-timing']);
    if (timing !== null) processing.push(timing);
    // The seed's success body starts with this exact text; anything else is parsed for its error.
    if (status === 200 && body.startsWith('{"success":true')) {
      succeeded += 1;
      return;
    }
    const reason = `${status} ${failureText(body)}`;
    failures[reason] = (failures[reason] ?? 0) + 1;
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
  const requests: autocannon.Request[] =
    settings.requests.length === 1
      ? [{ ...toRequest(settings.requests[0]!), onResponse: onResponse as autocannon.Request['onResponse'] }]
      : [
          {
            ...toRequest(settings.requests[0]!),
            // A shared cursor: concurrent connections walk one list instead of each replaying it from the start.
            setupRequest: (request) => ({ ...request, ...toRequest(pick()) }),
            onResponse: onResponse as autocannon.Request['onResponse'],
          },
        ];

  const result = await autocannon({
    url: settings.baseUrl,
    connections: settings.connections,
    duration: settings.durationSeconds,
    overallRate: settings.overallRate,
    requests,
  });

  if (result.errors > 0) failures['transport errors'] = result.errors;
  if (result.timeouts > 0) failures['timeouts'] = result.timeouts;
  const sorted = Float64Array.from(processing).sort();
  return {
    durationSeconds: result.duration,
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    succeeded,
    failures,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    processing: {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length === 0 ? NaN : sorted[sorted.length - 1]!,
      samples: sorted.length,
    },
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
