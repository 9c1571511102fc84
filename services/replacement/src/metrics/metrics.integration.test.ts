import { createServer, type Server } from 'node:http';
import { writePartnerProjection, type PartnerConfig } from '@trackline/contracts';
import { listen } from '@trackline/platform';
import { Redis } from 'ioredis';
import { createReplacementApp, type ReplacementApp } from '../app';
import {
  partnerConfig,
  poolNumbers,
  projection,
  silentLogger,
  testConfig,
  uniqueAdvId,
} from '../test-support/fixtures';
import { sendReplacementRequest, webRequest } from '../test-support/partner-client';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

/** Every metric docs/operations.md lists for the replacement service, with its type. */
const DOCUMENTED = {
  trackline_dynamic_number_requests_total: 'counter',
  trackline_dynamic_number_sessions_total: 'counter',
  trackline_dynamic_number_processing_seconds: 'histogram',
  trackline_route_decisions_total: 'counter',
  trackline_redis_errors_total: 'counter',
  trackline_calls_to_unknown_numbers_total: 'counter',
  process_cpu_user_seconds_total: 'counter',
  process_resident_memory_bytes: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
} as const;

interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
  /** Sample value by `name{labels}` exactly as written. */
  value(series: string): number | undefined;
}

async function scrape(baseUrl: string): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    value: (series) => samples.get(series),
  };
}

describe('GET /metrics on the replacement port', () => {
  let target: RedisTarget;
  let app: TestServer;
  let partner: PartnerConfig;

  beforeAll(async () => {
    target = await singleRedisTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
    partner = partnerConfig(uniqueAdvId('metrics'));
    await writePartnerProjection(target.redis, target.keyPrefix, projection(partner, poolNumbers(5)));
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
  });

  it('answers the Prometheus text format with every documented metric, without credentials', async () => {
    const metrics = await scrape(app.baseUrl);
    expect(metrics.status).toBe(200);
    expect(metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const [name, type] of Object.entries(DOCUMENTED)) {
      expect(metrics.text).toContain(`# TYPE ${name} ${type}\n`);
    }
    // Every outcome and action is there from the start, at 0, so rates work before the first error.
    for (const outcome of ['success', '400', '403', '413', '500', '501', 'other']) {
      expect(metrics.value(`trackline_dynamic_number_requests_total{outcome="${outcome}"}`)).toBe(0);
    }
    for (const action of ['dial', 'voicemail', 'reject']) {
      expect(metrics.value(`trackline_route_decisions_total{action="${action}"}`)).toBe(0);
    }
  });

  it('counts replacement requests by outcome and session, and their processing time', async () => {
    const send = (body: Record<string, unknown>, signature?: string) =>
      sendReplacementRequest(app.baseUrl, body, { secret: partner.signingSecret, signature });
    const first = await send(webRequest(partner.advId, '22334455'));
    expect(first.body.success).toBe(true);
    const again = await send(webRequest(partner.advId, '22334455', { sessionId: first.body.sessionId }));
    expect(again.body.sessionId).toBe(first.body.sessionId);
    // Legacy mode answers 200; the metric counts the real status.
    const forged = await send(webRequest(partner.advId, '22334455'), '0'.repeat(40));
    expect([forged.status, forged.body.error]).toEqual([200, 'Invalid signature']);

    const metrics = await scrape(app.baseUrl);
    expect(metrics.value('trackline_dynamic_number_requests_total{outcome="success"}')).toBe(2);
    expect(metrics.value('trackline_dynamic_number_requests_total{outcome="403"}')).toBe(1);
    expect(metrics.value('trackline_dynamic_number_sessions_total{kind="new"}')).toBe(1);
    expect(metrics.value('trackline_dynamic_number_sessions_total{kind="existing"}')).toBe(1);
    expect(metrics.value('trackline_dynamic_number_processing_seconds_count')).toBe(3);
    expect(metrics.value('trackline_dynamic_number_processing_seconds_bucket{le="+Inf"}')).toBe(3);
    expect(metrics.value('trackline_dynamic_number_processing_seconds_sum')).toBeGreaterThan(0);
  });

  it('counts telephony route decisions by action', async () => {
    const response = await fetch(`${app.baseUrl}/telephony/route`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer switch-token' },
      body: JSON.stringify({ call_id: 'metrics-1', anum: '+4790000001', bnum: '+4799999999' }),
    });
    expect(((await response.json()) as { action: string }).action).toBe('reject');
    const metrics = await scrape(app.baseUrl);
    expect(metrics.value('trackline_route_decisions_total{action="reject"}')).toBe(1);
    expect(metrics.value('trackline_route_decisions_total{action="dial"}')).toBe(0);
    // The number is in no inventory (docs/telephony.md): counted as a call to an unknown number.
    expect(metrics.value('trackline_calls_to_unknown_numbers_total{via="switch"}')).toBe(1);
    expect(metrics.value('trackline_calls_to_unknown_numbers_total{via="provider"}')).toBe(0);
  });

  it('answers 405 to other methods', async () => {
    const response = await fetch(`${app.baseUrl}/metrics`, { method: 'POST' });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET']);
  });
});

describe('replacement metrics while Redis is unreachable', () => {
  let replacement: ReplacementApp;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    // A connection closed on purpose: every command fails at once, and no reconnection outlives the test.
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
      enableOfflineQueue: false,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    await redis.connect();
    redis.disconnect();
    replacement = createReplacementApp({
      config: testConfig('tl-metrics-down:'),
      logger: silentLogger,
      redis,
    });
    server = createServer(replacement.handler);
    baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('counts the failed request as a 500 and a Redis error', async () => {
    const call = await sendReplacementRequest(baseUrl, webRequest('acme', '22334455'), {
      secret: 'x',
      httpStatuses: true,
    });
    expect([call.status, call.body.error]).toEqual([500, 'Number store unavailable']);
    const metrics = await scrape(baseUrl);
    expect(metrics.value('trackline_dynamic_number_requests_total{outcome="500"}')).toBe(1);
    expect(metrics.value('trackline_redis_errors_total{kind="error"}')).toBe(1);
    expect(metrics.value('trackline_redis_errors_total{kind="timeout"}')).toBe(0);
  });
});
