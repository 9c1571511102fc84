import { encodeCustomerSeenEvent, partnerKeys } from '@trackline/contracts';
import { Redis } from 'ioredis';
import { DigestClient } from '../test-support/digest-client';
import { rawRequest, type HttpResult } from '../test-support/https-request';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const PASSWORD = 'metrics-password-1';
const TOKEN = 'metrics-switch-token';

/** Every metric docs/operations.md lists for the management service, with its type. */
const DOCUMENTED = {
  trackline_http_requests_total: 'counter',
  trackline_pool_size: 'gauge',
  trackline_pool_bound: 'gauge',
  trackline_pool_utilisation: 'gauge',
  trackline_notification_outbox: 'gauge',
  trackline_cdrs_ingested_total: 'counter',
  trackline_cdr_batches_total: 'counter',
  trackline_customer_events_total: 'counter',
  trackline_metrics_collection_errors_total: 'counter',
  trackline_outbox_pending: 'gauge',
  trackline_outbox_oldest_pending_age_seconds: 'gauge',
  trackline_store_refusals_total: 'counter',
  process_cpu_user_seconds_total: 'counter',
  process_resident_memory_bytes: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
} as const;

function samples(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

describe('GET /metrics on the management port', () => {
  let stores: TestStores;
  let service: RunningService;
  let redis: Redis;

  beforeAll(async () => {
    stores = await createTestStores();
    redis = new Redis(stores.redis.url);
    await createDigestPartner(stores, 'acme', PASSWORD, ['127.0.0.1']);
    await createDigestPartner(stores, 'empty', PASSWORD, ['127.0.0.1']);
    await stores.services.numbers.add('acme', 'pool', ['+4791000001-+4791000004'], NOW);
    service = await startTestService(testConfig(stores, { TELEPHONY_TOKEN: TOKEN }), {
      clock: () => NOW,
      consumeCustomerEvents: true,
    });
  });

  afterAll(async () => {
    await service?.close();
    redis?.disconnect();
    await stores?.release();
  });

  const scrape = (options: { plain?: boolean } = {}): Promise<HttpResult> =>
    rawRequest({ port: service.port, method: 'GET', path: '/metrics', ...options });

  it('answers the Prometheus text format with every documented metric, over HTTPS and plain HTTP, without credentials', async () => {
    for (const plain of [false, true]) {
      const result = await scrape({ plain });
      expect(result.status).toBe(200);
      expect(result.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      for (const [name, type] of Object.entries(DOCUMENTED)) {
        expect(result.text).toContain(`# TYPE ${name} ${type}\n`);
      }
      const values = samples(result.text);
      for (const status of ['pending', 'sending', 'sent', 'dead', 'logged']) {
        expect(values.get(`trackline_notification_outbox{status="${status}"}`)).toBe(0);
      }
    }
  });

  it('shows each outbox backlog: rows not delivered, and how long the longest-due has waited', async () => {
    const before = samples((await scrape()).text);
    for (const outbox of ['notifications', 'webhooks', 'conversions']) {
      expect(before.get(`trackline_outbox_pending{outbox="${outbox}"}`)).toBe(0);
      expect(before.get(`trackline_outbox_oldest_pending_age_seconds{outbox="${outbox}"}`)).toBe(0);
    }
    // Due ten minutes ago and never taken: a worker that does not keep up. In backoff: not due.
    await stores.dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, payload, status, next_attempt_at)
       VALUES ('email', 'missed_call', 'a@example.com', '{}', 'pending', now() - interval '10 minutes'),
              ('email', 'missed_call', 'b@example.com', '{}', 'pending', now() + interval '1 hour'),
              ('email', 'missed_call', 'c@example.com', '{}', 'sent', now() - interval '2 hours')`,
    );
    try {
      const after = samples((await scrape()).text);
      expect(after.get('trackline_outbox_pending{outbox="notifications"}')).toBe(2);
      const age = after.get('trackline_outbox_oldest_pending_age_seconds{outbox="notifications"}')!;
      expect(age).toBeGreaterThanOrEqual(600);
      expect(age).toBeLessThan(660);
      expect(after.get('trackline_outbox_pending{outbox="webhooks"}')).toBe(0);
    } finally {
      await stores.dataSource.query(`DELETE FROM notification_outbox`);
    }
  });

  it('shows each partner pool: size, bound and utilisation, from the inventory and the live bindings', async () => {
    const pool = partnerKeys(stores.redis.keyPrefix, 'acme').pool;
    const t = NOW.getTime();
    // One binding still live (its score, the instant the number is free, lies after now), one ended.
    await redis.zadd(pool, t + 60_000, '+4791000002', t - 1, '+4791000003', 0, '+4791000001');
    const values = samples((await scrape()).text);
    expect(values.get('trackline_pool_size{partner="acme"}')).toBe(4);
    expect(values.get('trackline_pool_bound{partner="acme"}')).toBe(1);
    expect(values.get('trackline_pool_utilisation{partner="acme"}')).toBe(0.25);
    // A partner without a pool has a size of 0 and no utilisation series (it would be 0/0).
    expect(values.get('trackline_pool_size{partner="empty"}')).toBe(0);
    expect(values.has('trackline_pool_utilisation{partner="empty"}')).toBe(false);

    await redis.zadd(pool, t + 60_000, '+4791000001');
    const after = samples((await scrape()).text);
    expect(after.get('trackline_pool_bound{partner="acme"}')).toBe(2);
    expect(after.get('trackline_pool_utilisation{partner="acme"}')).toBe(0.5);
  });

  it('counts requests by method, route template and status', async () => {
    const client = new DigestClient(service.port, 'acme-api', PASSWORD);
    const before = samples((await scrape()).text);
    const series = 'trackline_http_requests_total{method="GET",route="/number_pools",status="200"}';
    expect((await client.request({ method: 'GET', path: '/v1/number_pools' })).status).toBe(200);
    expect((await client.request({ method: 'GET', path: '/v1/number_pools.xml' })).status).toBe(200);
    const after = samples((await scrape()).text);
    expect(after.get(series)).toBe((before.get(series) ?? 0) + 2);
    // The scrape itself, and the digest challenge before any route matched.
    expect(
      after.get('trackline_http_requests_total{method="GET",route="/metrics",status="200"}'),
    ).toBeGreaterThan(0);
    expect(
      after.get('trackline_http_requests_total{method="GET",route="unmatched",status="401"}'),
    ).toBeGreaterThan(0);
  });

  it('counts ingested call records by result', async () => {
    const send = (body: unknown) =>
      rawRequest({
        port: service.port,
        method: 'POST',
        path: '/telephony/cdrs',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const call = {
      call_id: 'metrics-call-1',
      anum: '+4798765000',
      bnum: '+4791000001',
      start: '2026-03-02 09:00:00',
      duration: 45,
      answered: 1,
    };
    expect((await send(call)).status).toBe(201);
    expect((await send(call)).status).toBe(200);
    expect((await send({ call_id: 'metrics-call-2' })).status).toBe(400);
    const values = samples((await scrape()).text);
    expect(values.get('trackline_cdrs_ingested_total{result="stored"}')).toBe(1);
    expect(values.get('trackline_cdrs_ingested_total{result="duplicate"}')).toBe(1);
    expect(values.get('trackline_cdrs_ingested_total{result="invalid"}')).toBe(1);
    // The new call's batch went in one transaction; the repeat was found by the lookups and wrote nothing.
    expect(values.get('trackline_cdr_batches_total{path="one_transaction"}')).toBe(1);
    expect(values.get('trackline_cdr_batches_total{path="per_record"}')).toBe(0);
  });

  it('counts customer-seen events, processed and malformed', async () => {
    const stream = partnerKeys(stores.redis.keyPrefix, 'acme').customerEvents;
    const event = encodeCustomerSeenEvent({ advId: 'acme', custnr: 'K-1', at: NOW.getTime() });
    await redis.xadd(stream, '*', ...event);
    await redis.xadd(stream, '*', 'version', 'nonsense');
    const deadline = Date.now() + 10_000;
    let values = samples((await scrape()).text);
    while (values.get('trackline_customer_events_total{result="malformed"}') !== 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      values = samples((await scrape()).text);
    }
    expect(values.get('trackline_customer_events_total{result="processed"}')).toBe(1);
    expect(values.get('trackline_customer_events_total{result="malformed"}')).toBe(1);
    expect(values.get('trackline_customer_events_total{result="failed"}')).toBe(0);
  });
});

describe('GET /metrics from an address outside METRICS_ALLOW_IP', () => {
  let stores: TestStores;
  let service: RunningService;

  beforeAll(async () => {
    stores = await createTestStores();
    service = await startTestService(testConfig(stores, { METRICS_ALLOW_IP: '10.0.0.0/8' }));
  });
  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  it('is refused with 403 and names the setting', async () => {
    const result = await rawRequest({ port: service.port, method: 'GET', path: '/metrics' });
    expect(result.status).toBe(403);
    expect(result.json()).toEqual({
      error: { status: 403, message: 'Metrics are not served to this address (METRICS_ALLOW_IP)' },
    });
  });
});
