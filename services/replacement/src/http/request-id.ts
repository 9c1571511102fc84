import { randomBytes } from 'node:crypto';

const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids for the replacement hot path. The caller's `X-Request-Id` is kept when well-formed
 * (the same rule as the platform's requestContext); otherwise the id is a per-process random prefix
 * and a counter. That is unique per process start, which is all a log search needs, and costs a
 * string concatenation instead of a UUID per request.
 */
export function requestIdSource(
  prefix: string = randomBytes(4).toString('hex'),
): (incoming: unknown) => string {
  let counter = 0;
  return (incoming) => {
    if (typeof incoming === 'string' && WELL_FORMED.test(incoming)) return incoming;
    counter = counter === Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
    return `${prefix}-${counter.toString(36)}`;
  };
}
