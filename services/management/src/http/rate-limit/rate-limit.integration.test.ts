import type { IncomingHttpHeaders } from 'node:http';
import { rateLimitOf } from '@trackline/client';
import { pingRoutes } from '../../ping/ping.routes';
import { DigestClient } from '../../test-support/digest-client';
import { rawRequest } from '../../test-support/https-request';
import { routePartner, send, startRouteApp } from '../../test-support/route-calls';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../../test-support/test-service';

const PING = { method: 'GET', path: '/miscellaneous/ping' };
/** 20 s into a minute: the window ends in 40 s. */
const START = new Date('2026-03-14T09:05:20Z');

/** The two fields as sent, and what the client package reads from them: both must agree. */
const limitHeaders = (answer: { headers: IncomingHttpHeaders }) => ({
  policy: answer.headers['ratelimit-policy'],
  current: answer.headers['ratelimit'],
  parsed: rateLimitOf(answer.headers),
});
const expected = (limit: number, remaining: number, reset: number) => ({
  policy: `"default";q=${limit};w=60`,
  current: `"default";r=${remaining};t=${reset}`,
  parsed: { limit, remaining, resetSeconds: reset },
});

/** docs/partner-api.md, Rate limit: per partner, after authentication, one budget for all replicas. */
describe('the per-partner rate limit, in Redis', () => {
  let stores: TestStores;
  const now = { at: START };
  const services: RunningService[] = [];

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'acme pass', ['127.0.0.1', '::1']);
    await createDigestPartner(stores, 'other', 'other pass', ['127.0.0.1', '::1']);
    await createDigestPartner(stores, 'bulk', 'bulk pass', ['127.0.0.1', '::1']);
    await createDigestPartner(stores, 'free', 'free pass', ['127.0.0.1', '::1']);
    // The operator's settings: bulk has a budget of its own, free none; acme and other the default.
    await stores.services.partners.update('bulk', { rateLimitPerMinute: '5' });
    await stores.services.partners.update('free', { rateLimitPerMinute: '0' });
    const config = testConfig(stores, { RATE_LIMIT_PER_MINUTE: '3' });
    // Two replicas on the same Redis: the budget is the partner's, not a process's.
    for (let replica = 0; replica < 2; replica += 1)
      services.push(await startTestService(config, { clock: () => now.at }));
  });

  afterAll(async () => {
    for (const service of services) await service.close();
    await stores?.release();
  });

  /** One client of the partner on each replica. */
  const clientsOf = (name: string) =>
    services.map((service) => new DigestClient(service.port, `${name}-api`, `${name} pass`));

  it('counts a partner on every replica, answers 429 with Retry-After past the limit, and starts again in the next window', async () => {
    const [first, second] = clientsOf('acme');
    const answers = [await first.request(PING), await second.request(PING), await first.request(PING)];
    expect(answers.map((answer) => [answer.status, limitHeaders(answer)])).toEqual(
      [2, 1, 0].map((remaining) => [200, expected(3, remaining, 40)]),
    );

    const refused = await second.request(PING);
    expect([refused.status, refused.json(), refused.headers['retry-after'], limitHeaders(refused)]).toEqual([
      429,
      { error: { status: 429, message: 'Rate limit of 3 requests per minute exceeded; retry in 40 s' } },
      '40',
      expected(3, 0, 40),
    ]);
    const inXml = await first.request({ method: 'GET', path: '/miscellaneous/ping.xml' });
    expect([inXml.status, inXml.text]).toEqual([
      429,
      '<?xml version="1.0" encoding="UTF-8"?>\n<error><status>429</status><message>Rate limit of 3 requests per minute exceeded; retry in 40 s</message></error>',
    ]);

    const other = await new DigestClient(services[0].port, 'other-api', 'other pass').request(PING);
    expect([other.status, limitHeaders(other)]).toEqual([200, expected(3, 2, 40)]);

    now.at = new Date('2026-03-14T09:06:01Z');
    const nextWindow = await first.request(PING);
    expect([nextWindow.status, limitHeaders(nextWindow)]).toEqual([200, expected(3, 2, 59)]);
  });

  it('holds a partner with its own limit to that limit, across replicas, beside one on the default', async () => {
    now.at = new Date('2026-03-14T09:20:30Z');
    const [first, second] = clientsOf('bulk');
    const [acme] = clientsOf('acme');
    const answers = [];
    for (let request = 0; request < 6; request += 1)
      answers.push(await (request % 2 === 0 ? first : second).request(PING));
    expect(
      answers.map((answer) => [answer.status, answer.headers['retry-after'], limitHeaders(answer)]),
    ).toEqual([
      ...[4, 3, 2, 1, 0].map((remaining) => [200, undefined, expected(5, remaining, 30)]),
      [429, '30', expected(5, 0, 30)],
    ]);
    expect(answers[5].json()).toEqual({
      error: { status: 429, message: 'Rate limit of 5 requests per minute exceeded; retry in 30 s' },
    });

    const acmeAnswers = [];
    for (let request = 0; request < 4; request += 1) acmeAnswers.push(await acme.request(PING));
    expect(acmeAnswers.map((answer) => [answer.status, limitHeaders(answer)])).toEqual([
      ...[2, 1, 0].map((remaining) => [200, expected(3, remaining, 30)]),
      [429, expected(3, 0, 30)],
    ]);
  });

  it('counts nothing and sends no RateLimit fields for a partner without a limit', async () => {
    now.at = new Date('2026-03-14T09:30:00Z');
    const [first, second] = clientsOf('free');
    for (let request = 0; request < 8; request += 1) {
      const answer = await (request % 2 === 0 ? first : second).request(PING);
      expect([answer.status, answer.headers['ratelimit-policy'], answer.headers['ratelimit']]).toEqual([
        200,
        undefined,
        undefined,
      ]);
    }
  });

  it("takes the operator's change of a limit at the partner's next request", async () => {
    now.at = new Date('2026-03-14T09:40:00Z');
    const [client] = clientsOf('other');
    expect(limitHeaders(await client.request(PING))).toEqual(expected(3, 2, 60));
    await stores.services.partners.update('other', { rateLimitPerMinute: '10' });
    expect(limitHeaders(await client.request(PING))).toEqual(expected(10, 8, 60));
    await stores.services.partners.update('other', { rateLimitPerMinute: 'default' });
    expect(limitHeaders(await client.request(PING))).toEqual(expected(3, 0, 60));
    expect((await client.request(PING)).status).toBe(429);
  });

  it('does not count or label a request that fails authentication', async () => {
    now.at = new Date('2026-03-14T09:50:00Z');
    const anonymous = await rawRequest({ port: services[0].port, ...PING });
    expect([anonymous.status, anonymous.headers['ratelimit-policy'], anonymous.headers['ratelimit']]).toEqual(
      [401, undefined, undefined],
    );
    const answer = await new DigestClient(services[0].port, 'acme-api', 'acme pass').request(PING);
    expect(limitHeaders(answer)).toEqual(expected(3, 2, 60));
  });
});

describe('the rate limit when its store fails', () => {
  it('lets the request through without headers, and counts it', async () => {
    const counted: string[] = [];
    const partner = routePartner('1', 'acme');
    const app = await startRouteApp(pingRoutes(), {
      partners: [partner],
      clock: () => START,
      rateLimit: {
        limiter: { consume: () => Promise.reject(new Error('Connection is closed.')) },
        defaultPerMinute: 600,
        clock: () => START,
        count: (result) => counted.push(result),
      },
    });
    try {
      const answer = await send(app.base, 'GET', '/miscellaneous/ping', {
        headers: { Authorization: 'Partner acme' },
      });
      expect([answer.status, answer.body, answer.headers.get('ratelimit')]).toEqual([
        200,
        { ping: 'ok' },
        null,
      ]);
      expect(counted).toEqual(['unavailable']);
    } finally {
      await app.close();
    }
  });
});
