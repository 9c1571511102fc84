import {
  decodeBinding,
  encodeNumberIndexEntry,
  encodePartnerConfig,
  encodeSourceRoute,
  numberIndexKey,
} from '@trackline/contracts';
import { bindingProblems, ledgerProblems } from '../test-support/failover-ledger';
import {
  failoverWindow,
  masterOf,
  numberOf,
  routeCall,
  runFailoverLoad,
  SOURCES,
  startFailoverRig,
  type FailoverRig,
  type LoadRun,
  visit,
} from '../test-support/failover-rig';

jest.setTimeout(120_000);

const MAX_WINDOW_MS = 10_000;
const WARM_UP_MS = 3_000;
const AFTER_KILL_MS = 15_000;

/**
 * A master's crash under load on a real Redis Cluster with one replica per master: the replacement
 * service answers 5xx only while the replica takes over (docs/operations.md, Redis Cluster failover),
 * and nothing it answers is wrong — no number on two live sessions, no call routed to anything but
 * the number's binding, no projection lost. Each case has a cluster of its own: the first crash
 * leaves a master without a replica.
 */
describe('replacement service through a Redis Cluster master failover', () => {
  let rig: FailoverRig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });

  it('answers 5xx only during the failover window, then serves correctly again', async () => {
    rig = await startFailoverRig({ poolSize: 1_000, onExhausted: 'original' });
    const run = await runFailoverLoad(rig, {
      warmUpMs: WARM_UP_MS,
      afterKillMs: AFTER_KILL_MS,
      returningFrom: Number.MAX_SAFE_INTEGER,
    });
    await expectServedThroughFailover(rig, run, false);
  });

  // docs/number-replacement.md, Pools and allocation: on_exhausted=recycle takes the least recently
  // used number from its live session; that session no longer holds it.
  it('recycles correctly through the failover when the pool is exhausted', async () => {
    const poolSize = 24;
    const current = (rig = await startFailoverRig({ poolSize, onExhausted: 'recycle' }));
    const run = await runFailoverLoad(current, {
      warmUpMs: WARM_UP_MS,
      afterKillMs: AFTER_KILL_MS,
      // Returning visitors of the last two pool turns: some still hold their number, some lost it.
      returningFrom: 2 * poolSize,
      // The master goes while every number is held by a live session, so every allocation recycles.
      readyToKill: async (load) =>
        load.grants.length >= 2 * poolSize &&
        (await current.redis.zcount(current.keys.pool, `(${Date.now()}`, '+inf')) === poolSize,
    });
    const { lastErrorAt } = await expectServedThroughFailover(current, run, true);

    // Every number passed to a new session after the window, each binding marked recycled.
    const bindings = await current.redis.hgetall(current.keys.bindings);
    const lastGrants = new Map(run.grants.map((grant) => [grant.number, grant]));
    for (const number of current.pool) {
      expect({
        number,
        givenAfterWindow: lastGrants.get(number)!.sentAt > (lastErrorAt ?? run.killedAt),
      }).toEqual({ number, givenAfterWindow: true });
      expect({ number, recycled: decodeBinding(bindings[number]!).recycled }).toEqual({
        number,
        recycled: true,
      });
    }

    // Calls to every number reach the session bound to it now and that session's source.
    const holders = new Map(run.sessions.map((session) => [session.sessionId, session]));
    for (const number of current.pool) {
      const holder = holders.get(decodeBinding(bindings[number]!).sessionId)!;
      expect(await routeCall(current, number)).toMatchObject({
        status: 200,
        body: { action: 'dial', session_id: holder.sessionId, target: holder.source.phonenr },
      });
    }

    // A session whose number was recycled comes back with another number; the number stays with its new session.
    const recycledAway = run.sessions
      .filter((session) => decodeBinding(bindings[session.number]!).sessionId !== session.sessionId)
      .slice(-5);
    expect(recycledAway.length).toBeGreaterThan(0);
    for (const session of recycledAway) {
      const holder = decodeBinding(
        (await current.redis.hget(current.keys.bindings, session.number))!,
      ).sessionId;
      const call = await visit(current, session);
      expect(call).toMatchObject({ status: 200, body: { sessionId: session.sessionId } });
      const number = numberOf(call.body);
      expect(current.pool).toContain(number);
      const now = await current.redis.hmget(current.keys.bindings, session.number, number);
      expect(decodeBinding(now[1]!)).toMatchObject({ sessionId: session.sessionId, recycled: true });
      expect(await routeCall(current, number)).toMatchObject({ body: { session_id: session.sessionId } });
      // The pool is exhausted, so the session recycles the least recently used number: usually
      // another, and then its old number stays with the session that took it. (Its own old number
      // comes back only when that one is the least recently used.)
      if (number !== session.number) {
        expect(decodeBinding(now[0]!).sessionId).toBe(holder);
        expect(await routeCall(current, session.number)).toMatchObject({ body: { session_id: holder } });
      }
    }
  });
});

/** What every failover case asserts; answers the window for the case's own checks. */
async function expectServedThroughFailover(rig: FailoverRig, run: LoadRun, recycling: boolean) {
  const window = failoverWindow(rig, run);
  const moved = run.grants.filter(
    (grant, i) => grant.kind === 'returning' && grant.number !== previousNumber(run, i),
  );
  console.log(
    `${recycling ? 'recycling: ' : ''}${window.summary}; ${run.grants.length} numbers given, ` +
      `${moved.length} of them to returning sessions whose number had been recycled, ${run.routes.length} calls routed`,
  );

  expect(window.unexpected).toEqual([]);
  expect(run.wrong).toEqual([]);
  expect(ledgerProblems(run, { poolSize: rig.pool.length, recycling })).toEqual([]);
  // Errors only after the kill, within one window of at most MAX_WINDOW_MS.
  expect(window.errors.every((error) => error.at >= run.killedAt)).toBe(true);
  expect(window.windowMs).toBeLessThanOrEqual(MAX_WINDOW_MS);
  // After the window every kind of request succeeds again, on the promoted replica.
  for (const kind of ['new', 'returning', 'route'] as const) {
    expect(
      window.afterWindow.filter((outcome) => outcome.kind === kind && outcome.status === 200).length,
    ).toBeGreaterThan(0);
  }
  expect(await masterOf(rig.redis, rig.keys.pool)).not.toBe(run.victim);
  expect(bindingProblems(run, await rig.redis.hgetall(rig.keys.bindings))).toEqual([]);
  await expectProjectionWhole(rig);
  return window;
}

/** The projection the test wrote before the crash is whole on the promoted replica. */
async function expectProjectionWhole({ redis, keys, keyPrefix, partner, pool }: FailoverRig): Promise<void> {
  expect(await redis.hgetall(keys.config)).toEqual(encodePartnerConfig(partner));
  expect((await redis.zrange(keys.pool, 0, -1)).sort()).toEqual([...pool].sort());
  expect(await redis.hgetall(keys.sourcesByPhonenr)).toEqual(
    Object.fromEntries(SOURCES.map((source) => [source.phonenr, encodeSourceRoute(source)])),
  );
  expect(await redis.hgetall(keys.staticRoutes)).toEqual(
    Object.fromEntries(SOURCES.map((source) => [source.destnr, encodeSourceRoute(source)])),
  );
  const index = await redis.hmget(numberIndexKey(keyPrefix), ...pool);
  expect(new Set(index)).toEqual(new Set([encodeNumberIndexEntry({ advId: partner.advId, kind: 'pool' })]));
}

/** The number the session of the `index`th grant held before it (by answer time). */
function previousNumber(run: LoadRun, index: number): string | undefined {
  const grant = run.grants[index]!;
  return run.grants
    .slice(0, index)
    .filter((earlier) => earlier.session === grant.session && earlier.answeredAt < grant.sentAt)
    .at(-1)?.number;
}
