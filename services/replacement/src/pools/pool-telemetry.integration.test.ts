import {
  decodePoolHourStats,
  HOUR_MS,
  partnerKeys,
  POOL_STATS_KEEP_HOURS,
  poolStatsHour,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { uniqueAdvId } from '../test-support/fixtures';
import { singleRedisTarget, whenReady, type RedisTarget } from '../test-support/redis-target';
import { PoolTelemetry } from './pool-telemetry';

const HOUR = poolStatsHour(Date.UTC(2026, 0, 5, 9, 0, 0));
const MINUTE = 60_000;
const at = (minutes: number) => HOUR * HOUR_MS + minutes * MINUTE;

/**
 * The pool telemetry as the service writes it (docs/redis-keys.md, Pool telemetry): counted per
 * allocation, written per partner and hour by lua/add-pool-stats.lua, kept when a write fails.
 */
describe('PoolTelemetry', () => {
  let target: RedisTarget;
  let redis: RedisConnection;
  let keyPrefix: string;
  const failures: unknown[] = [];

  beforeAll(async () => {
    target = await singleRedisTarget();
    ({ redis, keyPrefix } = target);
  });
  afterAll(async () => {
    await target?.close();
  });

  function setUp(): { telemetry: PoolTelemetry; advId: string; stats: (hour?: number) => Promise<unknown> } {
    failures.length = 0;
    const advId = uniqueAdvId('telemetry');
    const telemetry = new PoolTelemetry(redis, keyPrefix, (error) => failures.push(error));
    const stats = async (hour = HOUR) =>
      decodePoolHourStats(await redis.hgetall(partnerKeys(keyPrefix, advId).poolStats(hour)));
    return { telemetry, advId, stats };
  }

  /** Numbers held until `until` (epoch ms): pool scores as the allocation script leaves them. */
  async function hold(advId: string, numbers: number, until: number): Promise<void> {
    const members = Array.from({ length: numbers }, (_, i) => [String(until), `+479100000${i}`]).flat();
    await redis.zadd(partnerKeys(keyPrefix, advId).pool, ...members);
  }

  it('adds up the allocations of a partner-hour into one write, and counts none that did nothing', async () => {
    const { telemetry, advId, stats } = setUp();
    await hold(advId, 2, at(40));
    telemetry.record(advId, at(1), { newSession: true, issued: 2, recycled: 0 });
    telemetry.record(advId, at(2), { newSession: false, issued: 0, recycled: 0 });
    telemetry.record(advId, at(3), { newSession: true, issued: 1, recycled: 1 });
    expect(await stats()).toBeNull();
    await telemetry.flush();
    expect(await stats()).toEqual({ sessions: 2, issued: 3, recycled: 1, peakLeased: 2 });
    // Until the end of the hour plus POOL_STATS_KEEP_HOURS, on the requests' clock.
    const ttl = await redis.pttl(partnerKeys(keyPrefix, advId).poolStats(HOUR));
    expect(ttl).toBeLessThanOrEqual((HOUR + 1 + POOL_STATS_KEEP_HOURS) * HOUR_MS - at(3));
    expect(ttl).toBeGreaterThan((HOUR + 1 + POOL_STATS_KEEP_HOURS) * HOUR_MS - at(3) - MINUTE);
    // Nothing new: nothing written.
    await telemetry.flush();
    expect(await stats()).toEqual({ sessions: 2, issued: 3, recycled: 1, peakLeased: 2 });
  });

  it('raises the peak only after a free number was bound, or at the hour’s first recycling', async () => {
    const { telemetry, advId, stats } = setUp();
    await hold(advId, 1, at(40));
    telemetry.record(advId, at(1), { newSession: true, issued: 1, recycled: 0 });
    await telemetry.flush();
    await hold(advId, 3, at(40));
    // Recycled bindings after the first: the pool was full, the held count did not change.
    telemetry.record(advId, at(2), { newSession: true, issued: 1, recycled: 1 });
    await telemetry.flush();
    expect(await stats()).toMatchObject({ recycled: 1, peakLeased: 3 });
    await hold(advId, 4, at(40));
    telemetry.record(advId, at(3), { newSession: true, issued: 1, recycled: 1 });
    await telemetry.flush();
    expect(await stats()).toMatchObject({ recycled: 2, peakLeased: 3 });
    // A free number bound: the count of numbers held after the last request is compared.
    telemetry.record(advId, at(4), { newSession: true, issued: 1, recycled: 0 });
    await telemetry.flush();
    expect(await stats()).toMatchObject({ sessions: 4, issued: 4, recycled: 2, peakLeased: 4 });
    // A lower count never lowers the peak.
    await redis.del(partnerKeys(keyPrefix, advId).pool);
    await hold(advId, 1, at(40));
    telemetry.record(advId, at(5), { newSession: true, issued: 1, recycled: 0 });
    await telemetry.flush();
    expect(await stats()).toMatchObject({ peakLeased: 4 });
  });

  it('keeps each hour apart and says when an earlier hour is still to be written', async () => {
    const { telemetry, advId, stats } = setUp();
    await hold(advId, 1, at(90));
    telemetry.record(advId, at(59), { newSession: true, issued: 1, recycled: 0 });
    expect(telemetry.holdsHourBefore(HOUR)).toBe(false);
    expect(telemetry.holdsHourBefore(HOUR + 1)).toBe(true);
    telemetry.record(advId, at(61), { newSession: true, issued: 0, recycled: 0 });
    await telemetry.flush();
    expect(telemetry.holdsHourBefore(HOUR + 1)).toBe(false);
    expect(await stats(HOUR)).toEqual({ sessions: 1, issued: 1, recycled: 0, peakLeased: 1 });
    expect(await stats(HOUR + 1)).toEqual({ sessions: 1, issued: 0, recycled: 0, peakLeased: 0 });
  });

  it('keeps the counts of a failed write for the next one, with those counted since', async () => {
    const { telemetry, advId, stats } = setUp();
    await hold(advId, 2, at(40));
    telemetry.record(advId, at(1), { newSession: true, issued: 1, recycled: 0 });
    // Dropped, and reconnecting: the client refuses commands until it is back.
    const closed = new Promise((resolve) => redis.once('close', resolve));
    redis.disconnect(true);
    await telemetry.flush();
    expect(failures).toHaveLength(1);
    expect(telemetry.holdsHourBefore(HOUR + 1)).toBe(true);
    telemetry.record(advId, at(2), { newSession: true, issued: 1, recycled: 0 });
    await closed;
    await whenReady(redis);
    await telemetry.flush();
    expect(await stats()).toEqual({ sessions: 2, issued: 2, recycled: 0, peakLeased: 2 });
    expect(failures).toHaveLength(1);
  });

  it('writes what is left when closed', async () => {
    const { telemetry, advId, stats } = setUp();
    telemetry.start(60_000);
    telemetry.record(advId, at(1), { newSession: true, issued: 0, recycled: 0 });
    await telemetry.close();
    expect(await stats()).toEqual({ sessions: 1, issued: 0, recycled: 0, peakLeased: 0 });
  });
});
