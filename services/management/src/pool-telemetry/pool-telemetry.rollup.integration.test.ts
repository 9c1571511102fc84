import { HOUR_MS, partnerKeys, POOL_STATS_FIELDS } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import { Redis } from 'ioredis';
import { insertTestPartners } from '../test-support/test-partners';
import { createTestStores, type TestStores } from '../test-support/test-service';
import type { PoolTelemetryRollup } from './pool-telemetry.rollup';
import { PoolTelemetryStore } from './pool-telemetry.store';
import { createPoolTelemetryRollup } from './start-pool-telemetry';

const logger = createLogger({ service: 'pool-telemetry-test', level: 'silent' });
// The hour the tests count in, and a moment inside it (the rollup's clock).
const HOUR = 493_400;
const IN_HOUR = new Date(HOUR * HOUR_MS + 30 * 60_000);
const AFTER_HOUR = new Date((HOUR + 1) * HOUR_MS + 10 * 60_000);

// The rollup against real Postgres and Redis (docs/pool-sizing.md, Telemetry): counters written the
// way the allocation script writes them (its own tests check the script), rolled up, repeated, lost.
describe('pool telemetry rollup', () => {
  let stores: TestStores;
  let redis: Redis;
  let rollup: PoolTelemetryRollup;
  let table: PoolTelemetryStore;
  let acme: string;
  let beta: string;
  const exhaustedFor: string[] = [];

  beforeAll(async () => {
    stores = await createTestStores();
    redis = new Redis(stores.redis.url);
    [acme, beta] = await insertTestPartners(stores.dataSource.manager, 'acme', 'beta');
    rollup = createPoolTelemetryRollup({
      dataSource: stores.dataSource,
      redis,
      keyPrefix: stores.redis.keyPrefix,
      observer: { poolExhausted: (advId) => exhaustedFor.push(advId) },
      logger,
    });
    table = new PoolTelemetryStore(stores.dataSource.manager);
  });

  afterAll(async () => {
    redis?.disconnect();
    await stores?.release();
  });

  async function count(advId: string, hour: number, values: Record<keyof typeof POOL_STATS_FIELDS, number>) {
    const key = partnerKeys(stores.redis.keyPrefix, advId).poolStats(hour);
    await redis.del(key);
    await redis.hset(key, {
      [POOL_STATS_FIELDS.sessions]: values.sessions,
      [POOL_STATS_FIELDS.issued]: values.issued,
      [POOL_STATS_FIELDS.recycled]: values.recycled,
      [POOL_STATS_FIELDS.peakLeased]: values.peakLeased,
    });
  }

  async function stored(partnerId: string) {
    return table.hours(partnerId, new Date((HOUR - 2) * HOUR_MS), new Date((HOUR + 2) * HOUR_MS));
  }

  it('stores each partner-hour, repeats without change, and never lowers a count after Redis lost the hour', async () => {
    await count('acme', HOUR, { sessions: 40, issued: 44, recycled: 1, peakLeased: 9 });
    await count('beta', HOUR - 1, { sessions: 3, issued: 3, recycled: 0, peakLeased: 2 });
    await rollup.run(IN_HOUR, HOUR - 2);
    await rollup.run(IN_HOUR, HOUR - 2);
    expect(await stored(acme)).toEqual([
      {
        hour: new Date(HOUR * HOUR_MS),
        sessions: 40,
        issued: 44,
        recycled: 1,
        peakLeased: 9,
        poolCalls: 0,
        exhaustedAt: null,
      },
    ]);
    expect((await stored(beta)).map((row) => [row.hour.getTime(), row.sessions])).toEqual([
      [(HOUR - 1) * HOUR_MS, 3],
    ]);

    // Redis restarted empty mid-hour: the hash counts from 0 again.
    await count('acme', HOUR, { sessions: 5, issued: 5, recycled: 0, peakLeased: 12 });
    await rollup.run(IN_HOUR, HOUR - 2);
    expect(await stored(acme)).toMatchObject([{ sessions: 40, issued: 44, recycled: 1, peakLeased: 12 }]);
  });

  it('closes an hour once it is over and reads it no more', async () => {
    await count('acme', HOUR, { sessions: 50, issued: 54, recycled: 1, peakLeased: 12 });
    await rollup.run(AFTER_HOUR, HOUR - 2);
    const closed = await stores.dataSource.query(
      `SELECT closed FROM pool_telemetry_hours WHERE partner_id = $1 AND hour = $2`,
      [acme, new Date(HOUR * HOUR_MS)],
    );
    expect(closed).toEqual([{ closed: true }]);
    await count('acme', HOUR, { sessions: 70, issued: 70, recycled: 1, peakLeased: 12 });
    await rollup.run(AFTER_HOUR, HOUR - 2);
    expect(await stored(acme)).toMatchObject([{ sessions: 50, issued: 54 }]);
  });

  it('raises pool.exhausted once per partner-hour whose recycled share passes the threshold, queued for subscribed webhooks', async () => {
    await stores.dataSource.query(
      `INSERT INTO webhooks (partner_id, url, events, secret) VALUES ($1, 'https://hooks.example.com/a', '{pool.exhausted}', 'whsec_a'),
         ($1, 'https://hooks.example.com/b', '{call.completed}', 'whsec_b')`,
      [beta],
    );
    // 0.05 by default: 1 of 20 is exactly the threshold, not past it.
    await count('beta', HOUR + 1, { sessions: 20, issued: 20, recycled: 1, peakLeased: 4 });
    const atThreshold = await rollup.run(AFTER_HOUR, HOUR);
    expect(atThreshold.exhausted).toEqual([]);

    await count('beta', HOUR + 1, { sessions: 21, issued: 21, recycled: 2, peakLeased: 4 });
    const passed = await rollup.run(AFTER_HOUR, HOUR);
    expect(passed.exhausted.map((hour) => [hour.partnerId, hour.hour.getTime()])).toEqual([
      [beta, (HOUR + 1) * HOUR_MS],
    ]);
    await count('beta', HOUR + 1, { sessions: 30, issued: 30, recycled: 9, peakLeased: 4 });
    expect((await rollup.run(AFTER_HOUR, HOUR)).exhausted).toEqual([]);
    expect(exhaustedFor).toEqual(['beta']);

    const deliveries = (await stores.dataSource.query(
      `SELECT d.event_type, w.url, d.occurred_at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.partner_id = $1`,
      [beta],
    )) as Array<{ event_type: string; url: string; occurred_at: Date }>;
    expect(deliveries.map((row) => [row.event_type, row.url])).toEqual([
      ['pool.exhausted', 'https://hooks.example.com/a'],
    ]);
    // The delivery finds its hour by its occurred_at.
    expect(await table.exhaustedHour(beta, deliveries[0]!.occurred_at)).toMatchObject({
      hour: new Date((HOUR + 1) * HOUR_MS),
      recycled: 9,
    });
  });

  it('sets pool calls from the call records of the hour that a pool binding carried', async () => {
    const start = new Date(HOUR * HOUR_MS + 5 * 60_000);
    for (const [callId, attribution] of [
      ['c1', 'session'],
      ['c2', 'recycled'],
      ['c3', 'after_session'],
      ['c4', 'static'],
      ['c5', 'none'],
    ] as const) {
      await stores.dataSource.query(
        `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail, quarantined, "timestamp", attribution)
         VALUES ($1, $2, $3, 30, '+4798000001', '+4791000001', true, false, false, now(), $4)`,
        [callId, acme, start, attribution],
      );
    }
    await rollup.run(AFTER_HOUR, HOUR - 1);
    expect(await stored(acme)).toMatchObject([{ poolCalls: 3 }]);
  });
});
