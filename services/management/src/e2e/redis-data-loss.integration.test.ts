import { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { DigestClient, digestAuthorization, parseChallenges } from '../test-support/digest-client';
import { rawRequest, type HttpResult } from '../test-support/https-request';
import { startPrivateRedis, type PrivateRedis } from '../test-support/private-redis';
import { startE2eEnvironment, type E2eEnvironment, type JsonAnswer } from '../test-support/e2e-environment';

const PARTNER = {
  advId: 'loss-acme',
  username: 'loss-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL_NUMBERS = ['+4791200001', '+4791200002', '+4791200003'];
const FALLBACK = '+4722000111';
const PAGE_NUMBER = '+4722334455';
const REBUILDING = 'Service starting: configuration is being rebuilt, retry shortly';
/**
 * How long to wait for recovery before failing rather than hanging: a guard, not a figure (the one
 * that matters is measured and written to docs/operations.md, not asserted).
 */
const RECOVERY_BOUND_MS = 30_000;
/** How long Redis stays away before it comes back empty, long enough for reconnect backoff to grow. */
const OUTAGE_MS = 3_000;
const PING = '/miscellaneous/ping';

/**
 * Redis loses everything (docs/operations.md, Redis durability): a redis-server of this file's own is
 * stopped and started empty on the same port, or flushed in place. Without anyone running a command,
 * management rebuilds the projections and both services answer correctly again; meanwhile partners
 * and the switch hear "starting" (503, or 500 while Redis is unreachable), never `Invalid signature`
 * or `reject`.
 */
describe('after Redis comes back without its data', () => {
  jest.setTimeout(RECOVERY_BOUND_MS * 3);
  let redis: PrivateRedis;
  let env: E2eEnvironment;
  let callCount = 0;

  beforeAll(async () => {
    redis = await startPrivateRedis('redis-server');
    env = await startE2eEnvironment(PARTNER, { redisUrl: redis.url });
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    await env.operator('partner:update', '--name', PARTNER.advId, '--fallback-number', FALLBACK);
  });

  afterAll(async () => {
    await env?.close();
    await redis?.stop();
  });

  const requestNumbers = (advId = PARTNER.advId): Promise<JsonAnswer> => env.visit({ advId });

  const routePoolNumber = (): Promise<JsonAnswer> =>
    env.route({ call_id: `loss-${(callCount += 1)}`, anum: '+4798000001', bnum: POOL_NUMBERS[0] });

  const replaced = (answer: JsonAnswer): boolean =>
    answer.status === 200 &&
    answer.body.success === true &&
    POOL_NUMBERS.includes(
      (answer.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164,
    );
  // A pool number is routed to its binding's page number, or to the partner's fallback when unbound.
  const routed = (answer: JsonAnswer): boolean =>
    answer.status === 200 &&
    answer.body.action === 'dial' &&
    [PAGE_NUMBER, FALLBACK].includes(answer.body.target as string);

  /** What a client may hear while Redis is away or being rebuilt. */
  function expectStartingOrUnavailable(answer: JsonAnswer): void {
    const acceptable = [
      { status: 503, body: { success: false, error: REBUILDING } },
      { status: 500, body: { success: false, error: 'Number store unavailable' } },
      { status: 503, body: { error: { status: 503, message: REBUILDING } } },
      { status: 503, body: { error: { status: 503, message: 'Routing store unavailable' } } },
    ];
    expect(acceptable).toContainEqual({ status: answer.status, body: answer.body });
  }

  /**
   * Polls both endpoints until both answer correctly; returns how long that took, for the log line.
   * Every answer on the way must be "starting" or "unavailable".
   */
  async function recoveryMs(since: number): Promise<number> {
    for (const giveUpAt = since + RECOVERY_BOUND_MS; performance.now() < giveUpAt;) {
      const [numbers, call] = await Promise.all([requestNumbers(), routePoolNumber()]);
      if (replaced(numbers) && routed(call)) return performance.now() - since;
      if (!replaced(numbers)) expectStartingOrUnavailable(numbers);
      if (!routed(call)) expectStartingOrUnavailable(call);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`routing and replacement still not both correct after ${RECOVERY_BOUND_MS} ms`);
  }

  async function expectServingAsBefore(): Promise<void> {
    expect(replaced(await requestNumbers())).toBe(true);
    expect(routed(await routePoolNumber())).toBe(true);
    // Complete again: an advId nobody has is unknown, not "starting".
    const unknown = await requestNumbers('nobody-at-all');
    expect([unknown.status, unknown.body.error]).toEqual([403, 'Invalid signature']);
  }

  const ping = (authorization?: string): Promise<HttpResult> =>
    rawRequest({
      port: env.management.port,
      method: 'GET',
      path: PING,
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });

  /** An Authorization header management accepts once and then refuses as a replay (nc seen). */
  async function acceptedThenRefusedHeader(): Promise<string> {
    const [challenge] = parseChallenges((await ping()).headers);
    const header = digestAuthorization({
      username: PARTNER.username,
      password: PARTNER.password,
      challenge: challenge!,
      method: 'GET',
      uri: PING,
      nc: 1,
    });
    expect((await ping(header)).status).toBe(200);
    expect((await ping(header)).status).toBe(401);
    return header;
  }

  it('serves before the loss', async () => {
    await expectServingAsBefore();
    await acceptedThenRefusedHeader();
  });

  it('recovers by itself after redis-server restarts empty', async () => {
    // A header accepted before the loss, replayed after it.
    const acceptedHeader = await acceptedThenRefusedHeader();
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    redis = await startPrivateRedis('redis-server', redis.port);
    const ms = await recoveryMs(performance.now());
    console.info(
      `redis-data-loss: routing and replacement correct ${Math.round(ms)} ms after an empty restart`,
    );
    await expectServingAsBefore();

    // The nc counter that refused the header is gone; the epoch it named is too (docs/redis-keys.md,
    // Digest nonces): the replay is stale, and a client that knows the password is served.
    const replayed = await ping(acceptedHeader);
    expect([replayed.status, replayed.json()]).toEqual([
      401,
      { error: { status: 401, message: 'Digest nonce expired' } },
    ]);
    expect(parseChallenges(replayed.headers).every((challenge) => challenge.stale)).toBe(true);
    const client = new DigestClient(env.management.port, PARTNER.username, PARTNER.password);
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
  });

  it('recovers by itself after FLUSHALL on a Redis that stays up', async () => {
    const admin = new Redis(redis.url);
    try {
      // This file's own redis-server: nobody else's keys are on it.
      await admin.flushall();
    } finally {
      admin.disconnect();
    }
    const ms = await recoveryMs(performance.now());
    console.info(`redis-data-loss: routing and replacement correct ${Math.round(ms)} ms after FLUSHALL`);
    await expectServingAsBefore();
  });
});
