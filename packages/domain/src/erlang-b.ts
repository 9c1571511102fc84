/**
 * Erlang B: the probability that a call (here: a new visitor session) finds all `servers` (pool
 * numbers) busy, for an offered load in erlangs. The recurrence B(0) = 1,
 * B(n) = A·B(n−1) / (n + A·B(n−1)) stays within [0, 1] at every step, so it never overflows the
 * way the factorial formula does for large pools.
 */
export function erlangB(servers: number, offeredLoad: number): number {
  if (!Number.isSafeInteger(servers) || servers < 0)
    throw new RangeError('servers must be a whole number ≥ 0');
  if (!Number.isFinite(offeredLoad) || offeredLoad < 0) throw new RangeError('offeredLoad must be ≥ 0');
  let blocking = 1;
  for (let n = 1; n <= servers; n++) blocking = (offeredLoad * blocking) / (n + offeredLoad * blocking);
  return blocking;
}

/** The smallest number of servers whose Erlang B blocking is at or below `target` (0 < target ≤ 1). */
export function smallestServersFor(offeredLoad: number, target: number): number {
  if (!Number.isFinite(offeredLoad) || offeredLoad < 0) throw new RangeError('offeredLoad must be ≥ 0');
  if (!(target > 0 && target <= 1)) throw new RangeError('target must be in (0, 1]');
  // B falls strictly with n for A > 0 and reaches any positive target, so the loop ends.
  let servers = 0;
  let blocking = 1;
  while (blocking > target) {
    servers += 1;
    blocking = (offeredLoad * blocking) / (servers + offeredLoad * blocking);
  }
  return servers;
}
