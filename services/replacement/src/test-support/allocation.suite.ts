import {
  decodeBinding,
  decodePoolHourStats,
  HOUR_MS,
  partnerKeys,
  POOL_STATS_KEEP_HOURS,
  poolStatsHour,
  writePartnerProjection,
  type PartnerConfig,
} from '@trackline/contracts';
import { partnerConfig, poolNumbers, projection, uniqueAdvId } from './fixtures';
import { appRequest, sendReplacementRequest, webRequest, type PartnerCall } from './partner-client';
import type { RedisTarget } from './redis-target';
import { startTestServer, type TestServer } from './test-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MINUTE = 60_000;

interface NumberEntry {
  number_on_page: string;
  replace_with: { e164: string; local: string };
}

function numbersOf(call: PartnerCall): NumberEntry[] {
  expect(call.body.success).toBe(true);
  return call.body.numbers as NumberEntry[];
}

/**
 * Pool allocation through the HTTP service against any Redis: the single-Redis test file runs it,
 * and the cluster test calls it with a Redis Cluster target. Each test uses its own partner.
 */
export function allocationSuite(openTarget: () => Promise<RedisTarget>): void {
  let target: RedisTarget;
  let app: TestServer;

  beforeAll(async () => {
    target = await openTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
  });

  async function partnerWithPool(
    size: number,
    overrides: Partial<PartnerConfig> = {},
  ): Promise<PartnerConfig> {
    const config = partnerConfig(uniqueAdvId('alloc'), overrides);
    await writePartnerProjection(target.redis, target.keyPrefix, projection(config, poolNumbers(size)));
    return config;
  }

  function send(partner: PartnerConfig, body: Record<string, unknown>): Promise<PartnerCall> {
    return sendReplacementRequest(app.baseUrl, body, { secret: partner.signingSecret, httpStatuses: true });
  }

  it('answers the seed shape and keeps the number across requests of one session', async () => {
    const partner = await partnerWithPool(5);
    const first = await send(partner, webRequest(partner.advId, '22 33 44 55'));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['success', 'numbers', 'sessionId']);
    const [entry] = numbersOf(first);
    expect(entry!.number_on_page).toBe('22 33 44 55');
    expect(poolNumbers(5)).toContain(entry!.replace_with.e164);
    expect(entry!.replace_with.local).toMatch(/^91 00 00 0\d$/);
    const sessionId = first.body.sessionId as string;
    expect(sessionId).toMatch(UUID);

    app.clock.now += 5 * MINUTE;
    const again = await send(partner, webRequest(partner.advId, '22334455', { sessionId }));
    expect(again.body.sessionId).toBe(sessionId);
    expect(numbersOf(again)[0]!.replace_with.e164).toBe(entry!.replace_with.e164);
    expect(numbersOf(again)[0]!.number_on_page).toBe('22334455');

    const other = await send(partner, webRequest(partner.advId, '22 33 44 55'));
    expect(other.body.sessionId).not.toBe(sessionId);
    expect(numbersOf(other)[0]!.replace_with.e164).not.toBe(entry!.replace_with.e164);
  });

  it('allocates every number of a request at once, one pool number per distinct number', async () => {
    const partner = await partnerWithPool(5);
    const call = await send(partner, webRequest(partner.advId, '22334455, +47 23 45 67 89 ,22 33 44 55'));
    const [a, b, c] = numbersOf(call);
    expect([a!.number_on_page, b!.number_on_page, c!.number_on_page]).toEqual([
      '22334455',
      '+47 23 45 67 89',
      '22 33 44 55',
    ]);
    expect(a!.replace_with.e164).not.toBe(b!.replace_with.e164);
    expect(c!.replace_with.e164).toBe(a!.replace_with.e164);
  });

  it('starts a new session for an unknown or ended sessionId', async () => {
    const partner = await partnerWithPool(3);
    const unknown = await send(
      partner,
      webRequest(partner.advId, '22334455', { sessionId: '0b5c2f7e-93a4-4c11-8f2e-5d6a7b8c9d0e' }),
    );
    expect(unknown.body.sessionId).not.toBe('0b5c2f7e-93a4-4c11-8f2e-5d6a7b8c9d0e');
    const notOurs = await send(partner, webRequest(partner.advId, '22334455', { sessionId: 'hello' }));
    expect(notOurs.body.sessionId).toMatch(UUID);

    const first = await send(partner, webRequest(partner.advId, '23456789'));
    app.clock.now += partner.sessionTtlSeconds * 1000;
    const later = await send(
      partner,
      webRequest(partner.advId, '23456789', { sessionId: first.body.sessionId }),
    );
    expect(later.body.sessionId).not.toBe(first.body.sessionId);
  });

  it('keys app sessions on advId + trackingId', async () => {
    const partner = await partnerWithPool(4);
    const a1 = await send(partner, appRequest(partner.advId, '22334455', 'user-a'));
    const a2 = await send(partner, appRequest(partner.advId, '22334455', 'user-a'));
    const b1 = await send(partner, appRequest(partner.advId, '22334455', 'user-b'));
    expect(a2.body.sessionId).toBe(a1.body.sessionId);
    expect(numbersOf(a2)[0]!.replace_with.e164).toBe(numbersOf(a1)[0]!.replace_with.e164);
    expect(b1.body.sessionId).not.toBe(a1.body.sessionId);
    expect(numbersOf(b1)[0]!.replace_with.e164).not.toBe(numbersOf(a1)[0]!.replace_with.e164);
  });

  it('never binds one number to two live sessions: 200 concurrent new sessions, pool of 50', async () => {
    const partner = await partnerWithPool(50, { onExhausted: 'original' });
    const calls = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(partner, webRequest(partner.advId, '22334455', { trackingId: `v${i}` })),
      ),
    );
    const given = calls.map((call) => numbersOf(call)[0]!.replace_with.e164);
    const tracked = given.filter((number) => number !== '+4722334455');
    expect(tracked).toHaveLength(50);
    expect(new Set(tracked).size).toBe(50);
    expect(new Set(calls.map((call) => call.body.sessionId)).size).toBe(200);

    // Each stored binding names the one session that was given that number.
    const bindings = await target.redis.hgetall(partnerKeys(target.keyPrefix, partner.advId).bindings);
    expect(Object.keys(bindings)).toHaveLength(50);
    for (const [number, raw] of Object.entries(bindings)) {
      const owners = calls
        .filter((call) => numbersOf(call)[0]!.replace_with.e164 === number)
        .map((c) => c.body.sessionId);
      expect(owners).toEqual([decodeBinding(raw).sessionId]);
    }
  });

  it('recycles under load without giving one number to two sessions at the same time', async () => {
    const partner = await partnerWithPool(50, { onExhausted: 'recycle' });
    const calls = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(partner, webRequest(partner.advId, '22334455', { trackingId: `r${i}` })),
      ),
    );
    expect(calls.every((call) => poolNumbers(50).includes(numbersOf(call)[0]!.replace_with.e164))).toBe(true);
    const bindings = await target.redis.hgetall(partnerKeys(target.keyPrefix, partner.advId).bindings);
    const owners = Object.values(bindings).map((raw) => decodeBinding(raw));
    expect(new Set(owners.map((b) => b.sessionId)).size).toBe(50);
    expect(owners.filter((b) => b.recycled)).toHaveLength(50);
  });

  it('chooses the number free for the longest time and holds numbers back after the session', async () => {
    const partner = await partnerWithPool(3, {
      onExhausted: 'original',
      sessionTtlSeconds: 1800,
      holdBackSeconds: 600,
    });
    const t0 = app.clock.now;
    const numberAt = async (at: number, sessionId = ''): Promise<{ number: string; sessionId: string }> => {
      app.clock.now = at;
      const call = await send(partner, webRequest(partner.advId, '22334455', { sessionId }));
      return { number: numbersOf(call)[0]!.replace_with.e164, sessionId: call.body.sessionId as string };
    };
    const [n1, n2, n3] = poolNumbers(3);
    const s1 = await numberAt(t0);
    const s2 = await numberAt(t0 + 1 * MINUTE);
    const s3 = await numberAt(t0 + 2 * MINUTE);
    expect([s1.number, s2.number, s3.number]).toEqual([n1, n2, n3]);

    // Exhausted: the page keeps its own number.
    expect((await numberAt(t0 + 3 * MINUTE)).number).toBe('+4722334455');
    // Session 2 comes back: its expiry slides.
    expect((await numberAt(t0 + 20 * MINUTE, s2.sessionId)).number).toBe(n2);
    // Session 1 ended at t0+30 min, but its number is held back until t0+40 min.
    expect((await numberAt(t0 + 35 * MINUTE)).number).toBe('+4722334455');
    // At t0+43 min, n1 (free since t0+40) and n3 (free since t0+42) are free; n1 has waited longer.
    expect((await numberAt(t0 + 43 * MINUTE)).number).toBe(n1);
    expect((await numberAt(t0 + 43 * MINUTE)).number).toBe(n3);
    // n2's session was last seen at t0+20 min: held until t0+60 min.
    expect((await numberAt(t0 + 59 * MINUTE)).number).toBe('+4722334455');
    expect((await numberAt(t0 + 60 * MINUTE)).number).toBe(n2);
  });

  it("slides the session's numbers not shown, also when the page shows another one twice", async () => {
    const partner = await partnerWithPool(3, {
      onExhausted: 'original',
      sessionTtlSeconds: 1800,
      holdBackSeconds: 600,
    });
    const t0 = app.clock.now;
    const first = await send(partner, webRequest(partner.advId, '22334455, 23456789'));
    const sessionId = first.body.sessionId as string;
    const [a, c] = numbersOf(first).map((entry) => entry.replace_with.e164);
    expect(a).not.toBe(c);

    app.clock.now = t0 + 20 * MINUTE;
    const again = await send(partner, webRequest(partner.advId, '22334455, 22 33 44 55', { sessionId }));
    expect(numbersOf(again).map((entry) => entry.replace_with.e164)).toEqual([a, a]);

    // Without the slide, c would be free from t0+40 min; with it, both are held until t0+60 min.
    app.clock.now = t0 + 45 * MINUTE;
    const other = await send(partner, webRequest(partner.advId, '24681357, 21436587'));
    const given = numbersOf(other).map((entry) => entry.replace_with.e164);
    expect(given).not.toContain(a);
    expect(given).not.toContain(c);
    expect(given).toContain('+4721436587');
  });

  it('on_exhausted recycle takes the least recently used number and marks the binding', async () => {
    const partner = await partnerWithPool(2, { onExhausted: 'recycle' });
    const t0 = app.clock.now;
    const at = async (time: number): Promise<PartnerCall> => {
      app.clock.now = time;
      return send(partner, webRequest(partner.advId, '22334455'));
    };
    const first = await at(t0);
    await at(t0 + MINUTE);
    const third = await at(t0 + 2 * MINUTE);
    expect(numbersOf(third)[0]!.replace_with.e164).toBe(numbersOf(first)[0]!.replace_with.e164);
    const raw = await target.redis.hget(
      partnerKeys(target.keyPrefix, partner.advId).bindings,
      numbersOf(third)[0]!.replace_with.e164,
    );
    const binding = decodeBinding(raw!);
    expect(binding.recycled).toBe(true);
    expect(binding.sessionId).toBe(third.body.sessionId);

    // The first session lost its number; coming back it gets one that is not the third session's.
    app.clock.now = t0 + 3 * MINUTE;
    const back = await send(
      partner,
      webRequest(partner.advId, '22334455', { sessionId: first.body.sessionId }),
    );
    expect(back.body.sessionId).toBe(first.body.sessionId);
    expect(numbersOf(back)[0]!.replace_with.e164).not.toBe(numbersOf(third)[0]!.replace_with.e164);
  });

  it("recycles another session's number, never one the requesting session holds for another page number", async () => {
    const partner = await partnerWithPool(2, { onExhausted: 'recycle' });
    const t0 = app.clock.now;
    const at = async (time: number, numbers: string, sessionId = ''): Promise<PartnerCall> => {
      app.clock.now = time;
      return send(partner, webRequest(partner.advId, numbers, { sessionId }));
    };
    // A holds the number bound first (the least recently used), B the other.
    const a = await at(t0, '22334455');
    const held = numbersOf(a)[0]!.replace_with.e164;
    const b = await at(t0 + MINUTE, '22334466');
    // A's next page shows another number only: the pool is used up, and A's own number, though the
    // least recently used, stays A's; B's is recycled.
    const aAgain = await at(t0 + 2 * MINUTE, '22334477', a.body.sessionId as string);
    expect(aAgain.body.sessionId).toBe(a.body.sessionId);
    expect(numbersOf(aAgain)[0]!.replace_with.e164).toBe(numbersOf(b)[0]!.replace_with.e164);
    // A new session owns nothing yet: it recycles the least recently used number, A's first one.
    const c = await at(t0 + 3 * MINUTE, '22334488');
    expect(numbersOf(c)[0]!.replace_with.e164).toBe(held);
    const binding = decodeBinding(
      (await target.redis.hget(partnerKeys(target.keyPrefix, partner.advId).bindings, held))!,
    );
    expect(binding).toMatchObject({ sessionId: c.body.sessionId, recycled: true });
  });

  it('on_exhausted original answers the number on the page, untracked', async () => {
    const partner = await partnerWithPool(1, { onExhausted: 'original' });
    await send(partner, webRequest(partner.advId, '22334455'));
    const second = await send(partner, webRequest(partner.advId, '22 33 44 55'));
    expect(second.status).toBe(200);
    expect(numbersOf(second)).toEqual([
      { number_on_page: '22 33 44 55', replace_with: { e164: '+4722334455', local: '22 33 44 55' } },
    ]);
  });

  it('answers each number of a page in its place, an untracked one first, between or last', async () => {
    const partner = await partnerWithPool(2, { onExhausted: 'original' });
    const e164s = (call: PartnerCall) => numbersOf(call).map((entry) => entry.replace_with.e164);
    const first = await send(partner, webRequest(partner.advId, '22334455, 22334466, 22334477'));
    const [a, b] = e164s(first);
    expect(poolNumbers(2)).toEqual(expect.arrayContaining([a, b]));
    expect(e164s(first)).toEqual([a, b, '+4722334477']);
    const again = (numbers: string) =>
      send(partner, { ...webRequest(partner.advId, numbers), sessionId: first.body.sessionId });
    expect(e164s(await again('22334455, 22334477, 22334466'))).toEqual([a, '+4722334477', b]);
    expect(e164s(await again('22334477, 22334466, 22334455'))).toEqual(['+4722334477', b, a]);
  });

  it('answers 501 for a partner without a pool', async () => {
    const partner = await partnerWithPool(0);
    const call = await send(partner, webRequest(partner.advId, '22334455'));
    expect(call.status).toBe(501);
    expect(call.body).toEqual({ success: false, error: 'No number pool configured' });
  });

  it('keeps the request data with the binding', async () => {
    const partner = await partnerWithPool(2);
    const call = await send(
      partner,
      webRequest(partner.advId, '22334455', { fullReferrer: '', trackingId: 'tr-9' }),
    );
    const number = numbersOf(call)[0]!.replace_with.e164;
    const raw = await target.redis.hget(partnerKeys(target.keyPrefix, partner.advId).bindings, number);
    expect(decodeBinding(raw!)).toEqual({
      sessionId: call.body.sessionId,
      numberOnPage: '+4722334455',
      recycled: false,
      boundAt: app.clock.now,
      context: {
        type: 'web',
        trackingId: 'tr-9',
        fullUrl: 'https://www.example.no/ad/1234',
        fullReferrer: '',
        custnr: 'C-1',
        parameters: { custnr: 'C-1', custname: 'Kari Nordmann', custemail: 'kari@example.no', adId: '1234' },
      },
    });
  });

  it("keeps the session's latest request data with its binding, and the time it was bound", async () => {
    const partner = await partnerWithPool(2);
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    const boundAt = app.clock.now;
    const first = await send(partner, webRequest(partner.advId, '22334455', { trackingId: 'tr-1' }));
    const sessionId = first.body.sessionId as string;
    const number = numbersOf(first)[0]!.replace_with.e164;
    const stored = await target.redis.hget(keys.bindings, number);

    // The same page again (twice within one millisecond, then later): the binding stays as it was.
    await send(partner, webRequest(partner.advId, '22334455', { trackingId: 'tr-1', sessionId }));
    app.clock.now += MINUTE;
    const same = await send(
      partner,
      webRequest(partner.advId, '22334455', { trackingId: 'tr-1', sessionId }),
    );
    expect(numbersOf(same)[0]!.replace_with.e164).toBe(number);
    expect(await target.redis.hget(keys.bindings, number)).toBe(stored);
    expect(await target.redis.zscore(keys.pool, number)).toBe(
      String(app.clock.now + (partner.sessionTtlSeconds + partner.holdBackSeconds) * 1000),
    );

    // Another page of the same session: the binding carries its data from now on.
    app.clock.now += MINUTE;
    const other = await send(
      partner,
      webRequest(partner.advId, '22334455', {
        trackingId: 'tr-1',
        sessionId,
        fullUrl: 'https://www.example.no/ad/5678',
        parameters: { adId: '5678' },
      }),
    );
    expect(numbersOf(other)[0]!.replace_with.e164).toBe(number);
    const binding = decodeBinding((await target.redis.hget(keys.bindings, number))!);
    expect(binding).toMatchObject({ sessionId, boundAt, recycled: false });
    expect(binding.context).toMatchObject({
      fullUrl: 'https://www.example.no/ad/5678',
      custnr: null,
      parameters: { adId: '5678' },
    });
  });

  it('counts the hour’s new sessions, bindings, recycled bindings and peak in the pool-stats hash', async () => {
    const partner = await partnerWithPool(2);
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    // Early in an hour, so every request of this test falls into it.
    app.clock.now = (poolStatsHour(app.clock.now) + 1) * HOUR_MS + MINUTE;
    const hour = poolStatsHour(app.clock.now);
    const createdAt = app.clock.now;
    const stats = async () => {
      await app.flushPoolTelemetry();
      return decodePoolHourStats(await target.redis.hgetall(keys.poolStats(hour)));
    };

    const first = await send(partner, webRequest(partner.advId, '22334455, 23456789'));
    expect(await stats()).toEqual({ sessions: 1, issued: 2, recycled: 0, peakLeased: 2 });

    // The pool is held by the first session: the next two take its numbers (recycled).
    app.clock.now += MINUTE;
    await send(partner, webRequest(partner.advId, '22334455'));
    app.clock.now += MINUTE;
    const third = await send(partner, webRequest(partner.advId, '22334455'));
    expect(await stats()).toEqual({ sessions: 3, issued: 4, recycled: 2, peakLeased: 2 });

    // A returning session that keeps its number counts nothing.
    app.clock.now += MINUTE;
    await send(partner, webRequest(partner.advId, '22334455', { sessionId: third.body.sessionId as string }));
    expect(await stats()).toEqual({ sessions: 3, issued: 4, recycled: 2, peakLeased: 2 });

    // The first session lost both numbers to the others: coming back, it is bound anew (recycled).
    app.clock.now += MINUTE;
    await send(partner, webRequest(partner.advId, '22334455', { sessionId: first.body.sessionId as string }));
    expect(await stats()).toEqual({ sessions: 3, issued: 5, recycled: 3, peakLeased: 2 });

    // Kept until POOL_STATS_KEEP_HOURS after the hour ends, for management to roll up.
    const ttl = await target.redis.pttl(keys.poolStats(hour));
    const expected = (hour + 1 + POOL_STATS_KEEP_HOURS) * HOUR_MS - createdAt;
    expect(ttl).toBeLessThanOrEqual(expected);
    // Set again when a later request of the test created a field: the same instant on its clock.
    expect(ttl).toBeGreaterThan(expected - 5 * MINUTE);
  });

  it('starts a new hour’s hash at the hour boundary', async () => {
    const partner = await partnerWithPool(3);
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    const hour = poolStatsHour(app.clock.now) + 1;
    app.clock.now = (hour + 1) * HOUR_MS - 1;
    await send(partner, webRequest(partner.advId, '22334455'));
    app.clock.now += 1;
    await send(partner, webRequest(partner.advId, '22334455'));
    await send(partner, webRequest(partner.advId, '22334455'));
    await app.flushPoolTelemetry();
    expect(decodePoolHourStats(await target.redis.hgetall(keys.poolStats(hour)))).toEqual({
      sessions: 1,
      issued: 1,
      recycled: 0,
      peakLeased: 1,
    });
    // The numbers bound in the hour before are still leased: the peak counts them.
    await app.flushPoolTelemetry();
    expect(decodePoolHourStats(await target.redis.hgetall(keys.poolStats(hour + 1)))).toEqual({
      sessions: 2,
      issued: 2,
      recycled: 0,
      peakLeased: 3,
    });
  });

  it('ranks numbers bound at the same instant in the order they were bound, also twelve on one page', async () => {
    const partner = await partnerWithPool(12, { onExhausted: 'recycle' });
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    app.clock.now = (poolStatsHour(app.clock.now) + 1) * HOUR_MS + MINUTE;
    const pool = poolNumbers(12);
    const page = pool.map((_, i) => `223344${String(10 + i)}`).join(', ');
    const first = numbersOf(await send(partner, webRequest(partner.advId, page)));
    expect(first.map((n) => n.replace_with.e164)).toEqual(pool);
    // Same instant, pool used up: each new session recycles the number bound first, never one
    // just recycled (scores a thousandth of a millisecond apart keep that order).
    const recycled: string[] = [];
    for (let i = 0; i < 3; i++) {
      const call = await send(partner, webRequest(partner.advId, '22334455'));
      recycled.push(numbersOf(call)[0]!.replace_with.e164);
    }
    expect(recycled).toEqual(pool.slice(0, 3));
    await app.flushPoolTelemetry();
    expect(
      decodePoolHourStats(await target.redis.hgetall(keys.poolStats(poolStatsHour(app.clock.now)))),
    ).toEqual({
      sessions: 4,
      issued: 15,
      recycled: 3,
      peakLeased: 12,
    });
  });

  it('records the whole pool as the peak of an hour that only recycles', async () => {
    const partner = await partnerWithPool(2);
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    const hour = poolStatsHour(app.clock.now) + 1;
    // Both numbers taken in the last minutes of the hour before; held well into this one.
    app.clock.now = (hour + 1) * HOUR_MS - 2 * MINUTE;
    await send(partner, webRequest(partner.advId, '22334455'));
    await send(partner, webRequest(partner.advId, '22334455'));
    app.clock.now = (hour + 1) * HOUR_MS + MINUTE;
    await send(partner, webRequest(partner.advId, '22334455'));
    await send(partner, webRequest(partner.advId, '22334455'));
    await send(partner, webRequest(partner.advId, '22334455'));
    await app.flushPoolTelemetry();
    expect(decodePoolHourStats(await target.redis.hgetall(keys.poolStats(hour + 1)))).toEqual({
      sessions: 3,
      issued: 3,
      recycled: 3,
      peakLeased: 2,
    });
  });

  it("keeps a session's key until the session ends, renewing its expiry only when the key would end first", async () => {
    const partner = await partnerWithPool(3);
    const ttlMs = partner.sessionTtlSeconds * 1000;
    const first = await send(partner, webRequest(partner.advId, '22334455'));
    const sessionId = first.body.sessionId as string;
    const key = partnerKeys(target.keyPrefix, partner.advId).webSession(sessionId);
    // A new session's key lives one ttl, and holds no 'k' (as sessions written before it was kept).
    expect(await target.redis.pttl(key)).toBeGreaterThan(ttlMs - MINUTE);
    expect(await target.redis.pttl(key)).toBeLessThanOrEqual(ttlMs);
    expect(await target.redis.hget(key, 'k')).toBeNull();

    const again = async (minutes: number) => {
      app.clock.now += minutes * MINUTE;
      const call = await send(partner, webRequest(partner.advId, '22334455', { sessionId }));
      expect(call.body.sessionId).toBe(sessionId);
      expect(numbersOf(call)[0]!.replace_with.e164).toBe(numbersOf(first)[0]!.replace_with.e164);
      return { keptUntil: await target.redis.hget(key, 'k'), pttl: await target.redis.pttl(key) };
    };
    // The session now ends after the key would: kept two ttl from this request.
    const renewed = await again(5);
    expect(renewed.keptUntil).toBe(String(app.clock.now + 2 * ttlMs));
    expect(renewed.pttl).toBeGreaterThan(2 * ttlMs - MINUTE);
    // Still kept past the session's new end: no renewal.
    const kept = await again(5);
    expect(kept.keptUntil).toBe(renewed.keptUntil);
    expect(await target.redis.hget(key, 'x')).toBe(String(app.clock.now + ttlMs));
    // Close to the end of the key's time: renewed again.
    const later = await again(partner.sessionTtlSeconds / 60 - 1);
    expect(later.keptUntil).toBe(String(app.clock.now + 2 * ttlMs));
  });

  it('answers 501 when the partner has no pool', async () => {
    const config = partnerConfig(uniqueAdvId('nopool'));
    await writePartnerProjection(target.redis, target.keyPrefix, projection(config, []));
    const call = await send(config, webRequest(config.advId, '22334455'));
    expect(call.status).toBe(501);
    expect(call.body).toEqual({ success: false, error: 'No number pool configured' });
  });
}
