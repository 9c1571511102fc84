import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOUR_MS } from '@trackline/contracts';
import { formatUtcTimestamp } from '@trackline/domain';
import { createLogger } from '@trackline/platform';
import { createPoolTelemetryRollup } from '../composition/start-pool-telemetry';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import { testConfig } from '../test-support/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { createWebhookDispatcher } from '../composition/start-webhook-dispatcher';

const PARTNER = {
  advId: 'sizing-acme',
  username: 'sizing-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL_NUMBERS = ['+4791400001', '+4791400002', '+4791400003'];
const MINUTE = 60_000;
const SESSIONS = 12;
const logger = createLogger({ service: 'pool-sizing-e2e', level: 'silent' });

type Body = Record<string, unknown>;

/** Erlang B by its textbook sum, A^N/N! ÷ Σ A^k/k!, kept apart from the service's recurrence. */
function erlangBBySum(servers: number, load: number): number {
  let term = 1;
  let sum = 1;
  for (let k = 1; k <= servers; k++) {
    term *= load / k;
    sum += term;
  }
  return term / sum;
}

// A page asks for numbers at a known rate into a pool too small for it (docs/pool-sizing.md): 12
// new sessions in one hour, one every 5 minutes, each holding its number 40 minutes (the default
// session_ttl 1800 s + hold_back 600 s), on 3 numbers. The first 3 take free numbers; from the
// 4th on every session takes a number from a live one: 9 recycled. The rollup moves the hour into
// Postgres, GET /number_pools shows it with the advice, and the partner's receiver gets one
// pool.exhausted.
describe('pool sizing end to end', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;
  let receiver: WebhookReceiver;
  // Two hours ago, so the hour is closed and within the 30 days the advisor reads.
  const hourStart = (Math.floor(Date.now() / HOUR_MS) - 2) * HOUR_MS;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER, { managementEnv: { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' } });
    receiver = await startWebhookReceiver();
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    await env.operator('partner:update', '--name', PARTNER.advId, '--pool-exhausted-share', '0.5');
  });

  afterAll(async () => {
    await receiver?.close();
    await env?.close();
  });

  async function newSession(now: number): Promise<string> {
    const response = await env.visit({ at: now, trackingId: '' });
    expect(response.status).toBe(200);
    const body = response.body;
    return (body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
  }

  async function placeCall(callId: string, bnum: string, at: number): Promise<void> {
    const start = formatUtcTimestamp(new Date(at));
    expect((await env.route({ call_id: callId, anum: '+4798000001', bnum, at: start })).status).toBe(200);
    const record = { call_id: callId, anum: '+4798000001', bnum, start, duration: 40, answered: 1 };
    expect((await env.ingest(record)).status).toBe(201);
  }

  it('measures λ and the recycled share, advises N by Erlang B, and raises pool.exhausted once', async () => {
    const hook = await env.api.write('POST', '/webhooks', { url: receiver.url, events: 'pool.exhausted' });
    expect(hook.status).toBe(200);

    for (let i = 0; i < SESSIONS; i++) {
      const number = await newSession(hourStart + i * 5 * MINUTE);
      if (i === 0 || i === 6) await placeCall(`sizing-${i}`, number, hourStart + i * 5 * MINUTE + MINUTE);
    }
    // Replacement writes its pool telemetry once a second; the rollup should not wait for it.
    await env.replacement.flushPoolTelemetry();

    const rollup = createPoolTelemetryRollup({
      dataSource: env.stores.dataSource,
      redis: env.redis,
      keyPrefix: env.keyPrefix,
      logger,
    });
    const first = await rollup.run(new Date(), Math.floor(hourStart / HOUR_MS) - 1);
    expect(first.exhausted).toHaveLength(1);
    // A second run finds the hour closed and already raised: nothing new.
    expect((await rollup.run(new Date(), Math.floor(hourStart / HOUR_MS) - 1)).exhausted).toEqual([]);

    const answer = await env.api.read('/number_pools');
    expect(answer.status).toBe(200);
    const pool = (answer.body.number_pools as Body[])[0]!;
    // The seed's fields stay as they were.
    expect(pool).toMatchObject({ numbers: POOL_NUMBERS, size: '3' });
    expect(pool.utilisation).toMatch(/^\d\.\d{4}$/);
    const hour = {
      hour: new Date(hourStart).toISOString(),
      sessions: '12',
      sessions_per_second: (SESSIONS / 3600).toFixed(6),
      issued: '12',
      recycled: '9',
      recycled_share: '0.7500',
      peak_leased: '3',
      pool_calls: '2',
      calls_per_binding: (2 / 12).toFixed(4),
    };
    expect((pool.last_30_days as Body).busiest_hour).toEqual(hour);
    expect(pool.last_30_days).toMatchObject({ sessions: '12', recycled: '9', recycled_share: '0.7500' });

    // λ = 12 / 3600 s, T = 1800 + 600 s, A = 8 erlangs.
    const load = (SESSIONS / 3600) * 2400;
    let expectedSize = 0;
    while (erlangBBySum(expectedSize, load) > 0.01) expectedSize += 1;
    expect(pool.recommendation).toEqual({
      target_overflow: '0.0100',
      arrival_rate: (SESSIONS / 3600).toFixed(6),
      session_ttl: '1800',
      hold_back: '600',
      hold_seconds: '2400',
      offered_load: '8.0000',
      recommended_size: String(expectedSize),
      blocking_at_recommended: erlangBBySum(expectedSize, load).toFixed(6),
      current_size: '3',
      blocking_at_current: erlangBBySum(3, load).toFixed(6),
    });
    // The measured share of the undersized pool sits far above the target it was sized against.
    expect(Number(hour.recycled_share)).toBeGreaterThan(erlangBBySum(expectedSize, load));

    // The same record as XML: nested elements, one <day> per day.
    const xml = await env.api.read('/number_pools', 'xml');
    expect(xml.status).toBe(200);
    const xmlPool = (xml.body.number_pools as { number_pool: Body }).number_pool;
    expect((xmlPool.last_30_days as Body).busiest_hour).toEqual(hour);
    expect((xmlPool.last_30_days as { days: { day: Body } }).days.day).toMatchObject({ sessions: '12' });
    expect(xmlPool.recommendation).toMatchObject({
      offered_load: '8.0000',
      recommended_size: String(expectedSize),
    });

    const strict = await env.api.read('/number_pools?target_overflow=0.001');
    let strictSize = 0;
    while (erlangBBySum(strictSize, load) > 0.001) strictSize += 1;
    expect((strict.body.number_pools as Body[])[0]!.recommendation).toMatchObject({
      target_overflow: '0.0010',
      recommended_size: String(strictSize),
    });
    const refused = await env.api.read('/number_pools?target_overflow=1.5');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('target_overflow');

    const dispatcher = createWebhookDispatcher({
      dataSource: env.stores.dataSource,
      config: testConfig(env.stores, { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' }),
      workerId: 'pool-sizing-worker',
      logger,
    });
    try {
      for (let round = 0; round < 50 && receiver.received.length === 0; round++) await dispatcher.runOnce();
    } finally {
      await dispatcher.stop();
    }
    expect(receiver.received).toHaveLength(1);
    const event = JSON.parse(receiver.received[0]!.body) as Body;
    expect(event.type).toBe('pool.exhausted');
    expect(event.data).toEqual({ ...hour, threshold: '0.5000' });

    // docs/webhooks.md shows this delivery; only the hour and the time differ.
    const documented = /<!-- pool-example: pool.exhausted -->\s*```json\n([\s\S]*?)```/.exec(
      readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'webhooks.md'), 'utf8'),
    )![1]!;
    const example = JSON.parse(documented) as { type: string; data: Body };
    expect({ type: event.type, data: { ...(event.data as Body), hour: example.data.hour } }).toEqual({
      type: example.type,
      data: example.data,
    });
  });
});
