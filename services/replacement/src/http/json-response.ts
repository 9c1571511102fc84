import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Writes a JSON response with `Server-Timing: app;dur=<ms>`, the processing time from the request's
 * arrival, on every response (docs/benchmarks.md measures p99 from it). Written with writeHead/end directly:
 * Express's res.json would also compute an ETag nobody uses on this API. Serves both the plain
 * node:http replacement path and the Express routes (an Express Response is a ServerResponse).
 * Returns the processing time it wrote, for the metrics to record the same value.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: OutgoingHttpHeaders,
): number {
  const payload = JSON.stringify(body);
  const ms = elapsedMs(res);
  const all: OutgoingHttpHeaders = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Server-Timing': serverTimingOf(ms),
  };
  if (headers !== undefined) Object.assign(all, headers);
  res.writeHead(status, all);
  res.end(payload);
  return ms;
}

const STARTED = Symbol('trackline.started');

interface Timed {
  [STARTED]?: bigint;
}

/** Marks the request's arrival (first thing on either path); sendJson reads it. */
export function markRequestStart(res: ServerResponse): void {
  (res as Timed)[STARTED] = process.hrtime.bigint();
}

/** Milliseconds since markRequestStart; 0 when it was never called. */
export function elapsedMs(res: ServerResponse): number {
  const started = (res as Timed)[STARTED];
  return started === undefined ? 0 : Number(process.hrtime.bigint() - started) / 1e6;
}

/** The `Server-Timing` value for a response written now (for answers not written by sendJson). */
export function serverTiming(res: ServerResponse): string {
  return serverTimingOf(elapsedMs(res));
}

function serverTimingOf(ms: number): string {
  return `app;dur=${ms.toFixed(2)}`;
}
