import type { RedisConnection } from '@trackline/platform';
import type { ProjectionHealer } from './projection-healer';

/**
 * Checks the generation marker on every (re)connection to Redis — ioredis emits `ready` after each
 * one, so a Redis that restarted empty is caught at once — and every `intervalMs`, which catches
 * data lost without a reconnection (a FLUSHALL, a failover to an empty replica). A check costs
 * one GET. Returns the function that stops watching.
 */
export function watchProjectionGeneration(
  healer: Pick<ProjectionHealer, 'healIfNeeded'>,
  redis: RedisConnection,
  intervalMs: number,
): () => void {
  const check = (): void => {
    // While disconnected the next `ready` checks; a GET now would only fail and log.
    if (redis.status === 'ready') void healer.healIfNeeded();
  };
  redis.on('ready', check);
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return () => {
    redis.off('ready', check);
    clearInterval(timer);
  };
}
