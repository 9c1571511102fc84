import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOUR_MS } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import { TwilioNumbersSimulator } from '@trackline/test-harness';
import { createPoolTelemetryRollup } from '../composition/start-pool-telemetry';
import { createWebhookDispatcher } from '../composition/start-webhook-dispatcher';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import { testConfig } from '../test-support/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';

const PARTNER = {
  advId: 'autoscale-acme',
  username: 'autoscale-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const OWN_NUMBERS = ['+4791600001', '+4791600002'];
const ON_SALE = Array.from({ length: 12 }, (_, i) => `+479170${String(i).padStart(4, '0')}`);
const SESSIONS = 36;
const REPLACEMENT_PUBLIC_URL = 'https://numbers.trackline.example';
const logger = createLogger({ service: 'pool-autoscaling-e2e', level: 'silent' });

type Body = Record<string, unknown>;

// A pool that sizes itself (docs/pool-sizing.md, Autoscaling): a partner's page brings 36 new
// sessions in an hour to a pool of 2; the advisor recommends far more, and the pool grows on its
// own at the partner's carrier (the harness's Twilio simulator) to what max_monthly_cost pays for,
// sending pool.resized. A carrier that refuses changes nothing; idle numbers are released and
// quarantined.
describe('pool autoscaling end to end', () => {
  jest.setTimeout(E2E_TIMEOUT_MS * 2);
  let env: E2eEnvironment;
  let receiver: WebhookReceiver;
  const carrier = new TwilioNumbersSimulator();
  const hourStart = (Math.floor(Date.now() / HOUR_MS) - 2) * HOUR_MS;

  beforeAll(async () => {
    await carrier.start();
    carrier.stock({ country: 'NO', numbers: ON_SALE });
    env = await startE2eEnvironment(PARTNER, {
      managementEnv: {
        WEBHOOK_INSECURE_HOSTS: '127.0.0.1',
        REPLACEMENT_PUBLIC_URL,
        // Evaluated as soon as autoscaling is turned on, then not again within the test.
        POOL_AUTOSCALING_INTERVAL_MS: String(HOUR_MS),
        POOL_AUTOSCALING_CHECK_MS: '200',
      },
      autoscalePools: true,
    });
    receiver = await startWebhookReceiver();
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...OWN_NUMBERS);
    const account = await env.api.write('PUT', '/carrier_account', {
      account_sid: carrier.accountSid,
      auth_token: carrier.authToken,
      base_url: carrier.baseUrl,
    });
    expect(account.status).toBe(200);
    const webhook = await env.api.write('POST', '/webhooks', { url: receiver.url, events: 'pool.resized' });
    expect(webhook.status).toBe(200);
  });

  afterAll(async () => {
    await receiver?.close();
    await env?.close();
    await carrier.stop();
  });

  async function pool(): Promise<Body> {
    const answer = await env.api.read('/number_pools');
    expect(answer.status).toBe(200);
    return (answer.body.number_pools as Body[])[0]!;
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = await probe();
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  async function deliver(): Promise<Body[]> {
    const dispatcher = createWebhookDispatcher({
      dataSource: env.stores.dataSource,
      config: testConfig(env.stores, { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' }),
      workerId: 'pool-autoscaling-worker',
      logger,
    });
    try {
      for (let round = 0; round < 20; round++) await dispatcher.runOnce();
    } finally {
      await dispatcher.stop();
    }
    return receiver.received.map((delivery) => JSON.parse(delivery.body) as Body);
  }

  it('grows on its own to the cost cap when the traffic calls for more numbers', async () => {
    // 36 sessions in one hour, one every 100 s: λ = 0.01/s, T = 2,400 s, A = 24 erlangs.
    for (let i = 0; i < SESSIONS; i++) {
      const answer = await env.visit({ at: hourStart + i * 100_000, trackingId: `visitor-${i}` });
      expect(answer.status).toBe(200);
    }
    await env.replacement.flushPoolTelemetry();
    const rollup = createPoolTelemetryRollup({
      dataSource: env.stores.dataSource,
      redis: env.redis,
      keyPrefix: env.keyPrefix,
      logger,
    });
    await rollup.run(new Date(), Math.floor(hourStart / HOUR_MS) - 1);
    const before = await pool();
    expect(before).toMatchObject({ size: '2', autoscaling: '0' });
    expect(Number((before.recommendation as Body).recommended_size)).toBeGreaterThan(8);

    // Five numbers at 1.15 a month: max_monthly_cost 5.75 holds the pool below max (8).
    const dryRun = await env.api.write('PUT', '/number_pools', {
      min: '2',
      max: '8',
      max_monthly_cost: '5.75',
    });
    expect(dryRun.status).toBe(200);
    const plan = await env.api.read('/number_pools/resize_plan');
    expect((plan.body.resize_plans as Body[])[0]).toMatchObject({
      action: 'grow',
      from_size: '2',
      target_size: '5',
      add_count: '3',
    });
    expect(carrier.purchases()).toHaveLength(0);

    const turnedOn = await env.api.write('PUT', '/number_pools', { autoscaling: '1' });
    expect(turnedOn.status).toBe(200);
    const grown = await until('the scheduled evaluation', async () => {
      const current = await pool();
      return current.last_evaluation === null ? undefined : current;
    });
    expect(grown).toMatchObject({ size: '5', monthly_cost: '5.75' });
    const evaluation = grown.last_evaluation as Body;
    expect(evaluation).toMatchObject({
      trigger: 'schedule',
      outcome: 'grew',
      from_size: '2',
      to_size: '5',
      released: [],
      error_code: null,
    });
    expect(evaluation.reason).toContain('capped at 5 by max_monthly_cost 5.75');
    expect(evaluation.added).toEqual(ON_SALE.slice(0, 3));
    expect(grown.numbers).toEqual([...OWN_NUMBERS, ...ON_SALE.slice(0, 3)].sort());
    // Bought with Trackline's endpoints set, and owned by the partner's account now.
    expect(carrier.purchases().map((purchase) => purchase.form.VoiceUrl)).toEqual(
      Array(3).fill(`${REPLACEMENT_PUBLIC_URL}/telephony/twilio/voice`),
    );
    expect(carrier.ownedNumbers().map((number) => number.phoneNumber)).toEqual(ON_SALE.slice(0, 3));

    const events = await deliver();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'pool.resized', data: evaluation });
    // docs/webhooks.md shows such a delivery; the time, the id and the numbers differ.
    const documented = /<!-- pool-example: pool.resized -->\s*```json\n([\s\S]*?)```/.exec(
      readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'webhooks.md'), 'utf8'),
    )![1]!;
    const example = JSON.parse(documented) as { type: string; data: Body };
    expect(Object.keys(events[0]!.data as Body)).toEqual(Object.keys(example.data));
    expect(Object.keys((events[0]!.data as Body).plan as Body)).toEqual(
      Object.keys(example.data.plan as Body),
    );
  });

  /** The evaluation the schedule makes after a settings change (the pool is due at once). */
  async function scheduledAfter(previousId: unknown): Promise<Body> {
    return until('the scheduled evaluation', async () => {
      const evaluation = (await pool()).last_evaluation as Body | null;
      return evaluation !== null && evaluation.id !== previousId ? evaluation : undefined;
    });
  }

  it('changes nothing when the carrier refuses, and says why', async () => {
    const previous = ((await pool()).last_evaluation as Body).id;
    carrier.failWith(1, { status: 401, code: 20003, message: 'Authenticate' });
    // A higher cap makes the pool due at once; the carrier refuses the first purchase.
    await env.api.write('PUT', '/number_pools', { max_monthly_cost: '9.20' });
    const failed = await scheduledAfter(previous);
    expect(failed).toMatchObject({
      trigger: 'schedule',
      outcome: 'failed',
      from_size: '5',
      to_size: '5',
      added: [],
      error_code: '20003',
    });
    expect(failed.reason).toContain('nothing changed');
    expect(await pool()).toMatchObject({ size: '5' });
    expect(carrier.ownedNumbers()).toHaveLength(3);
    const metrics = await env.management.app.metrics.registry.getSingleMetricAsString(
      'trackline_pool_carrier_errors_total',
    );
    expect(metrics).toContain(
      `trackline_pool_carrier_errors_total{partner="${PARTNER.advId}",code="20003"} 1`,
    );
    // Nothing was bought, so nothing was sent.
    expect(await deliver()).toHaveLength(1);

    // The next evaluation tries again and grows to the new cap: 9.20 pays for 8.
    const retried = await env.api.write('POST', '/number_pools/resize', {});
    expect((retried.body.pool_resizes as Body[])[0]).toMatchObject({
      trigger: 'api',
      outcome: 'grew',
      to_size: '8',
    });
    const history = await env.api.read('/number_pools/resizes');
    expect((history.body.pool_resizes as Body[]).map((row) => [row.trigger, row.outcome])).toEqual([
      ['api', 'grew'],
      ['schedule', 'failed'],
      ['schedule', 'grew'],
    ]);
  });

  it('releases idle numbers at the carrier and quarantines them', async () => {
    // Four of the bought numbers have been in the pool 40 days without a call; the partner's own two
    // and the last two bought are younger.
    const bought = ON_SALE.slice(0, 6);
    await env.stores.dataSource.query(
      `UPDATE tracking_numbers SET added_at = added_at - make_interval(days => 40) WHERE e164 = ANY($1)`,
      [bought.slice(0, 4)],
    );
    const previous = ((await pool()).last_evaluation as Body).id;
    await env.api.write('PUT', '/number_pools', { max: '4' });
    const row = await scheduledAfter(previous);
    expect(row).toMatchObject({ outcome: 'shrank', from_size: '8', to_size: '4' });
    expect([...(row.released as string[])].sort()).toEqual(bought.slice(0, 4));
    expect(
      carrier
        .ownedNumbers()
        .map((number) => number.phoneNumber)
        .sort(),
    ).toEqual(bought.slice(4, 6));
    expect((await pool()).size).toBe('4');
    // Quarantined: the partner cannot add one back for 90 days.
    await expect(
      env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', bought[0]!),
    ).rejects.toThrow(/quarantin/);
  });
});
