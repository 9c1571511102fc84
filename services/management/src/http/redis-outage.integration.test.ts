import { DigestClient } from '../test-support/digest-client';
import { rawRequest } from '../test-support/https-request';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const PING = '/miscellaneous/ping';
const TOKEN = 'switch-token';
const POOL_NUMBER = '+4740000001';
const UNAVAILABLE = { error: { status: 503, message: 'Service temporarily unavailable; retry later' } };

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Redis down or hanging (docs/operations.md, Redis outages): 503 fast, never 500, never a crash. */
describe('management during a Redis outage', () => {
  let stores: TestStores;
  let redisProxy: TcpProxy;
  let service: RunningService | undefined;
  let config: ReturnType<typeof testConfig>;

  beforeAll(async () => {
    stores = await createTestStores();
    const partner = await createDigestPartner(stores, 'acme', 'secret pass', ['127.0.0.1', '::1']);
    // A pool number: ingesting a call to it reads the visitor's attribution from Redis.
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, $2, 'pool', now())`,
      [partner.id, POOL_NUMBER],
    );
    const redisUrl = new URL(stores.redis.url);
    redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    redisUrl.port = String(redisProxy.port);
    config = testConfig(stores, {
      REDIS_URL: redisUrl.toString(),
      REDIS_COMMAND_TIMEOUT_MS: '300',
      REDIS_CONNECT_TIMEOUT_MS: '500',
      TELEPHONY_TOKEN: TOKEN,
    });
  });

  afterAll(async () => {
    await service?.close();
    await redisProxy?.close();
    await stores?.release();
  });

  it('starts while Redis is down: /health 200, /ready 503, and recovers by itself', async () => {
    redisProxy.cut();
    service = await startTestService(config);
    const health = await rawRequest({ port: service.port, method: 'GET', path: '/health' });
    expect(health.status).toBe(200);
    const ready = await rawRequest({ port: service.port, method: 'GET', path: '/ready' });
    expect(ready.status).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'unreachable' } });
    const client = new DigestClient(service.port, 'acme-api', 'secret pass');
    const down = await client.request({ method: 'GET', path: PING });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    expect(down.json()).toEqual(UNAVAILABLE);

    redisProxy.restore();
    await eventually(
      async () => (await rawRequest({ port: service!.port, method: 'GET', path: '/ready' })).status === 200,
    );
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
  });

  it('answers 503 while Redis hangs: digest requests, /ready and CDR ingestion', async () => {
    const port = service!.port;
    const client = new DigestClient(port, 'acme-api', 'secret pass');
    expect((await client.request({ method: 'GET', path: PING })).status).toBe(200);
    redisProxy.freeze();
    // The proxy holds every byte until thawed: the service must give up on Redis (its command
    // timeout, 300 ms here) and answer 503 instead of waiting. How long that takes is not asserted
    // (docs/testing.md: timings belong in benches).
    try {
      const ping = await client.request({ method: 'GET', path: PING });
      expect(ping.status).toBe(503);
      expect(ping.json()).toEqual(UNAVAILABLE);
      const ready = await rawRequest({ port, method: 'GET', path: '/ready' });
      expect(ready.status).toBe(503);
      const cdr = await rawRequest({
        port,
        method: 'POST',
        path: '/telephony/cdrs',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          call_id: 'frozen-1',
          anum: '+4791234567',
          bnum: POOL_NUMBER,
          start: '2026-03-02 09:00:00',
          duration: 60,
          answered: 1,
        }),
      });
      expect(cdr.status).toBe(503);
      expect(cdr.headers['retry-after']).toBe('1');
      expect(cdr.json()).toEqual({
        error: { status: 503, message: 'Call records cannot be stored right now; retry later' },
      });
    } finally {
      redisProxy.thaw();
    }
    await eventually(async () => (await client.request({ method: 'GET', path: PING })).status === 200);
  });
});
