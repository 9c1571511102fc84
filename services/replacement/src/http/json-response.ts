import type { Response } from 'express';

/**
 * Writes a JSON response with `Server-Timing: app;dur=<ms>`, the processing time from the request's
 * arrival, on every response (SPEC §11 measures p99 from it). Written with writeHead/end directly:
 * Express's res.json would also compute an ETag nobody uses on this API.
 */
export function sendJson(
  res: Response,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Server-Timing': `app;dur=${elapsedMs(res).toFixed(2)}`,
  });
  res.end(payload);
}

const STARTED = Symbol('trackline.started');

interface Timed {
  [STARTED]?: bigint;
}

/** The first middleware marks the arrival; sendJson reads it. */
export function markRequestStart(res: Response): void {
  (res as Timed)[STARTED] = process.hrtime.bigint();
}

function elapsedMs(res: Response): number {
  const started = (res as Timed)[STARTED];
  return started === undefined ? 0 : Number(process.hrtime.bigint() - started) / 1e6;
}
