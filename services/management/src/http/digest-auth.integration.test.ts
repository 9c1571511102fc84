import { Agent } from 'node:https';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { digestKeys } from '@trackline/contracts';
import { Redis } from 'ioredis';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { rawRequest, type HttpResult } from '../test-support/https-request';
import {
  DigestClient,
  digestAuthorization,
  parseChallenges,
  pingAs,
  type AuthorizationInput,
  type Challenge,
} from '../test-support/digest-client';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';

const PASSWORD = 'correct horse';
const PING = '/miscellaneous/ping';

function errorOf(result: HttpResult): unknown {
  return result.json();
}

async function challengeFrom(port: number, path = PING) {
  const first = await rawRequest({ port, method: 'GET', path });
  expect(first.status).toBe(401);
  return parseChallenges(first.headers);
}

/** The Authorization header curl would send as acme-api for GET /miscellaneous/ping, unless told otherwise. */
function pingAuthorization(challenge: Challenge, options: Partial<AuthorizationInput> = {}): string {
  return digestAuthorization({
    username: 'acme-api',
    password: PASSWORD,
    challenge,
    method: 'GET',
    uri: PING,
    nc: 1,
    ...options,
  });
}

/** A GET carrying a ready-made Authorization header, to the ping operation unless told otherwise. */
function getAuthorized(port: number, authorization: string, options: { path?: string; host?: string } = {}) {
  return rawRequest({
    port,
    host: options.host,
    method: 'GET',
    path: options.path ?? PING,
    headers: { Authorization: authorization },
  });
}

describe('digest authentication', () => {
  let stores: TestStores;
  let service: RunningService;
  let second: RunningService;
  let now = Date.now();

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', PASSWORD, ['127.0.0.1', '::1']);
    await createDigestPartner(stores, 'elsewhere', PASSWORD, ['10.0.0.0/8', '2001:db8::/32']);
    const clock = () => new Date(now);
    // Two replicas: same database, same Redis, same nonce key — different processes' worth of state.
    service = await startTestService(testConfig(stores), { clock });
    second = await startTestService(testConfig(stores), { clock });
  });

  afterAll(async () => {
    await service.close();
    await second.close();
    await stores.release();
  });

  it('accepts what curl --digest sends (MD5, qop=auth) and a keep-alive session reusing the nonce', async () => {
    const client = new DigestClient(service.port, 'acme-api', PASSWORD);
    for (let round = 0; round < 3; round += 1) {
      const ping = await client.request({ method: 'GET', path: PING });
      expect(ping.status).toBe(200);
      expect(ping.json()).toEqual({ ping: 'ok' });
    }
    expect(client.lastAuthorization).toContain('nc=00000003');
  });

  it('accepts SHA-256', async () => {
    const client = new DigestClient(service.port, 'acme-api', PASSWORD, 'SHA-256');
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
  });

  it('challenges with MD5 and SHA-256, qop=auth, and explains a missing header', async () => {
    const result = await rawRequest({ port: service.port, method: 'GET', path: PING });
    expect(result.status).toBe(401);
    expect(errorOf(result)).toEqual({ error: { status: 401, message: 'Digest authentication required' } });
    const challenges = parseChallenges(result.headers);
    expect(
      challenges.map((challenge) => [challenge.algorithm, challenge.qop, challenge.realm, challenge.stale]),
    ).toEqual([
      ['MD5', 'auth', 'Trackline', false],
      ['SHA-256', 'auth', 'Trackline', false],
    ]);
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    for (const [username, password] of [
      ['acme-api', 'wrong'],
      ['nobody', PASSWORD],
    ]) {
      const result = await pingAs(service.port, username, password);
      expect(result.status).toBe(401);
      expect(errorOf(result)).toEqual({ error: { status: 401, message: 'Invalid credentials' } });
      expect(parseChallenges(result.headers)).toHaveLength(2);
    }
  });

  it('refuses a response without qop (RFC 2069 style), which has no replay protection', async () => {
    const [challenge] = await challengeFrom(service.port);
    const result = await getAuthorized(service.port, pingAuthorization(challenge, { withoutQop: true }));
    expect(result.status).toBe(401);
    expect(errorOf(result)).toEqual({
      error: { status: 401, message: 'Digest qop=auth with cnonce and nc is required' },
    });
  });

  it('refuses a header whose uri is not the request line', async () => {
    const [challenge] = await challengeFrom(service.port);
    const result = await getAuthorized(service.port, pingAuthorization(challenge), {
      path: '/v1/miscellaneous/ping',
    });
    expect(result.status).toBe(401);
    expect(errorOf(result)).toEqual({
      error: { status: 401, message: 'Digest uri does not match the request' },
    });
  });

  it('refuses a nonce it did not issue', async () => {
    const [challenge] = await challengeFrom(service.port);
    const forged = {
      ...challenge,
      nonce: `${challenge.nonce.slice(0, -1)}${challenge.nonce.endsWith('0') ? '1' : '0'}`,
    };
    const result = await getAuthorized(service.port, pingAuthorization(forged));
    expect(result.status).toBe(401);
    expect(errorOf(result)).toEqual({ error: { status: 401, message: 'Invalid digest nonce' } });
  });

  it('refuses a replayed Authorization header on another replica, which still accepts the nonce with a higher nc', async () => {
    const [challenge] = await challengeFrom(service.port);
    const authorize = (nc: number) => pingAuthorization(challenge, { nc });
    const first = authorize(1);

    expect((await getAuthorized(service.port, first)).status).toBe(200);
    const replayed = await getAuthorized(second.port, first);
    expect(replayed.status).toBe(401);
    expect(errorOf(replayed)).toEqual({
      error: { status: 401, message: 'Digest nonce count already used (replayed request)' },
    });
    expect((await getAuthorized(service.port, first)).status).toBe(401);
    expect((await getAuthorized(second.port, authorize(2))).status).toBe(200);
  });

  it('answers an expired nonce with stale=true, and the client retries without asking for the password', async () => {
    const client = new DigestClient(service.port, 'acme-api', PASSWORD);
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
    const [challenge] = await challengeFrom(service.port);
    now += 301_000;
    try {
      const result = await getAuthorized(service.port, pingAuthorization(challenge));
      expect(result.status).toBe(401);
      expect(errorOf(result)).toEqual({ error: { status: 401, message: 'Digest nonce expired' } });
      expect(parseChallenges(result.headers).every((fresh) => fresh.stale)).toBe(true);
      // The long-lived client's nonce expired too; it follows stale=true and succeeds.
      expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
    } finally {
      now -= 301_000;
    }
  });

  it('answers a header replayed after Redis lost its data stale=true on every replica, and clients go on', async () => {
    const [challenge] = await challengeFrom(service.port);
    const header = pingAuthorization(challenge);
    expect((await getAuthorized(service.port, header)).status).toBe(200);
    expect((await getAuthorized(service.port, header)).status).toBe(401);

    // Every key of this namespace goes, as when Redis restarts empty: the nc counters and their epoch.
    await stores.redis.cleanup();
    for (const replica of [second, service]) {
      const replayed = await getAuthorized(replica.port, header);
      expect(replayed.status).toBe(401);
      expect(errorOf(replayed)).toEqual({ error: { status: 401, message: 'Digest nonce expired' } });
      expect(parseChallenges(replayed.headers).every((fresh) => fresh.stale)).toBe(true);
    }
    // The fresh challenge names the new epoch: a client that knows the password is served at once.
    const [fresh] = parseChallenges((await getAuthorized(service.port, header)).headers);
    expect((await getAuthorized(service.port, pingAuthorization(fresh!))).status).toBe(200);
    const client = new DigestClient(second.port, 'acme-api', PASSWORD);
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
  });

  it('checks the partner IP allowlist after authentication and says why it refuses', async () => {
    const result = await pingAs(service.port, 'elsewhere-api', PASSWORD);
    expect(result.status).toBe(401);
    expect(errorOf(result)).toEqual({
      error: {
        status: 401,
        message:
          'Client address 127.0.0.1 is not in the IP allowlist of this account; ask the operator to add it',
      },
    });
  });

  it('leaves memory flat and stores nothing across 20,000 unauthenticated requests', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const agent = new Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });
    const flood = async (count: number) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          next += 1;
          const result = await rawRequest({
            port: service.port,
            method: 'GET',
            path: PING,
            agent,
          });
          if (result.status !== 401) throw new Error(`unexpected ${result.status}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    };
    const heapAfterGc = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    try {
      await flood(2_000);
      const before = heapAfterGc();
      await flood(20_000);
      const after = heapAfterGc();
      // http-auth's own nonce array would hold 20,000 entries (several MB); ours holds none.
      expect(after - before).toBeLessThan(2 * 1024 * 1024);
    } finally {
      agent.destroy();
    }
    const redis = new Redis(stores.redis.url);
    try {
      const [, keys] = await redis.scan(
        '0',
        'MATCH',
        digestKeys(stores.redis.keyPrefix).nonceCount('*'),
        'COUNT',
        100_000,
      );
      // Only the successful requests of the tests above left counters; not one per 401.
      expect(keys.length).toBeLessThan(20);
    } finally {
      redis.disconnect();
    }
    // 22,000 requests: generous, because a shared CI machine may be slow; nothing here is timed.
  }, 300_000);
});

describe('client addresses', () => {
  let stores: TestStores;
  let service: RunningService;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'v4', PASSWORD, ['127.0.0.0/8']);
    await createDigestPartner(stores, 'v6', PASSWORD, ['::1/128']);
    // Dual-stack listener: IPv4 clients arrive as IPv4-mapped IPv6 (::ffff:127.0.0.1).
    service = await startTestService(testConfig(stores, { MANAGEMENT_HOST: '::' }));
  });

  afterAll(async () => {
    await service.close();
    await stores.release();
  });

  it('matches IPv4-mapped IPv6 peers against IPv4 ranges and IPv6 peers against IPv6 ranges', async () => {
    const v4 = await pingAs(service.port, 'v4-api', PASSWORD);
    expect(v4.status).toBe(200);
    const v6 = new DigestClient(service.port, 'v6-api', PASSWORD);
    const fromV4 = await v6.request({ method: 'GET', path: PING });
    expect(fromV4.status).toBe(401);
    const overV6 = await rawRequest({
      port: service.port,
      host: '::1',
      method: 'GET',
      path: PING,
    });
    const [challenge] = parseChallenges(overV6.headers);
    const ok = await getAuthorized(service.port, pingAuthorization(challenge, { username: 'v6-api' }), {
      host: '::1',
    });
    expect(ok.status).toBe(200);
  });
});

describe('stores unreachable', () => {
  let stores: TestStores;
  let redisProxy: TcpProxy;
  let postgresProxy: TcpProxy;
  let service: RunningService;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', PASSWORD, ['127.0.0.1']);
    const redisUrl = new URL(stores.redis.url);
    const databaseUrl = new URL(stores.database.url);
    redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    postgresProxy = await startTcpProxy(databaseUrl.hostname, Number(databaseUrl.port || 5432));
    redisUrl.port = String(redisProxy.port);
    databaseUrl.port = String(postgresProxy.port);
    service = await startTestService(
      testConfig(stores, { REDIS_URL: redisUrl.toString(), DATABASE_URL: databaseUrl.toString() }),
    );
  });

  afterAll(async () => {
    await service.close();
    await redisProxy.close();
    await postgresProxy.close();
    await stores.release();
  });

  it('answers 503 while Redis is unreachable and reports it on /ready', async () => {
    const client = new DigestClient(service.port, 'acme-api', PASSWORD);
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
    redisProxy.cut();
    try {
      const down = await client.request({ method: 'GET', path: '/miscellaneous/ping.xml' });
      expect(down.status).toBe(503);
      expect(down.text).toContain(
        '<error><status>503</status><message>Service temporarily unavailable; retry later</message></error>',
      );
      const ready = await rawRequest({ port: service.port, method: 'GET', path: '/ready' });
      expect(ready.status).toBe(503);
      expect(ready.json()).toEqual({
        status: 'unavailable',
        checks: { postgres: 'ok', redis: 'unreachable' },
      });
    } finally {
      redisProxy.restore();
    }
  });

  it('answers 503 while Postgres is unreachable', async () => {
    // Redis reconnects with backoff after the previous test; wait until it is back.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if ((await rawRequest({ port: service.port, method: 'GET', path: '/ready' })).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    postgresProxy.cut();
    try {
      const down = await pingAs(service.port, 'acme-api', PASSWORD);
      expect(down.status).toBe(503);
      expect(down.json()).toEqual({
        error: { status: 503, message: 'Service temporarily unavailable; retry later' },
      });
      const ready = await rawRequest({ port: service.port, method: 'GET', path: '/ready' });
      expect(ready.status).toBe(503);
      expect((ready.json() as { checks: unknown }).checks).toEqual({ postgres: 'unreachable', redis: 'ok' });
    } finally {
      postgresProxy.restore();
    }
  });
});
