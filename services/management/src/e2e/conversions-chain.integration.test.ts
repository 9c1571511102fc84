import { createLogger } from '@trackline/platform';
import { Ga4Simulator, GoogleAdsSimulator } from '@trackline/test-harness';
import { createConversionExporter } from '../composition/start-conversion-exporter';
import type { ConversionExporter } from '../conversions/conversion-exporter';
import { TypeormConversionOutboxStore } from '../conversions/conversion-outbox.store';
import {
  E2E_TIMEOUT_MS,
  startE2eEnvironment,
  type E2eEnvironment,
  type JsonAnswer,
} from '../test-support/e2e-environment';
import { testConfig } from '../test-support/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';
import { createWebhookDispatcher } from '../composition/start-webhook-dispatcher';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';

const PARTNER = {
  advId: 'conv-acme',
  username: 'conv-acme-api',
  password: 'conversions password',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL_NUMBERS = ['+4791300001', '+4791300002'];
const GCLID = 'EAIaIQobChMIconv_chain-1';
const CLIENT_ID = '1234567890.1700000000';
const SESSION = '1764000000';
const ACCOUNT = {
  clientId: 'trackline-test.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-simulated-secret',
  refreshToken: '1//simulated-refresh-token',
  developerToken: 'simulated-developer-token',
  managerCustomerId: '1112223333',
  customerId: '4445556666',
  conversionActionIds: ['777', '888'],
  clickIds: [GCLID],
};
const MEASUREMENT = { measurementId: 'G-CHAIN42', apiSecret: 'ga4-api-secret-value' };

type Body = Record<string, unknown>;

// The whole chain with both real services and Google simulated as its documentation describes: a
// signed replacement request carrying a gclid and a GA4 client id, the call routed and recorded,
// the conversion received once by each simulator; then the partner's outcome, its call.outcome
// webhook and a second conversion and event (docs/conversions.md).
describe('calls become conversions, end to end', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  const ga4 = new Ga4Simulator([MEASUREMENT]);
  const ads = new GoogleAdsSimulator(ACCOUNT);
  let env: E2eEnvironment;
  let exporter: ConversionExporter;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let outbox: TypeormConversionOutboxStore;
  const start = new Date(Math.floor((Date.now() - 10 * 60_000) / 1000) * 1000);

  beforeAll(async () => {
    await Promise.all([ga4.start(), ads.start()]);
    receiver = await startWebhookReceiver();
    const conversionEnv = {
      CONVERSIONS_GA4_URL: ga4.baseUrl,
      CONVERSIONS_GOOGLE_ADS_URL: ads.baseUrl,
      CONVERSIONS_OAUTH_TOKEN_URL: `${ads.baseUrl}/token`,
      WEBHOOK_INSECURE_HOSTS: '127.0.0.1',
    };
    env = await startE2eEnvironment(PARTNER, { managementEnv: conversionEnv });
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    env.replacement.clock.now = start.getTime() - 60_000;
    const config = testConfig(env.stores, conversionEnv);
    const logger = createLogger({ service: 'conversions-chain', level: 'silent' });
    exporter = createConversionExporter({
      dataSource: env.stores.dataSource,
      config,
      workerId: 'chain-exporter',
      logger,
    });
    dispatcher = createWebhookDispatcher({
      dataSource: env.stores.dataSource,
      config,
      workerId: 'chain-webhooks',
      logger,
    });
    outbox = new TypeormConversionOutboxStore(env.stores.dataSource.manager);
  });

  afterAll(async () => {
    await receiver?.close();
    await env?.close();
    await Promise.all([ga4.stop(), ads.stop()]);
  });

  async function setUpIntegrations(): Promise<void> {
    const googleAds = await env.api.write('PUT', '/integrations/google_ads', {
      customer_id: '444-555-6666',
      login_customer_id: '111-222-3333',
      conversion_action_id: '777',
      outcome_conversion_action_id: '888',
      call_min_duration: '30',
      oauth_client_id: ACCOUNT.clientId,
      oauth_client_secret: ACCOUNT.clientSecret,
      refresh_token: ACCOUNT.refreshToken,
      developer_token: ACCOUNT.developerToken,
    });
    expect(googleAds.status).toBe(200);
    const analytics = await env.api.write('PUT', '/integrations/ga4', {
      measurement_id: MEASUREMENT.measurementId,
      api_secret: MEASUREMENT.apiSecret,
    });
    expect(analytics.status).toBe(200);
    const hook = await env.api.write('POST', '/webhooks', { url: receiver.url, events: 'call.outcome' });
    expect(hook.status).toBe(200);
  }

  const requestNumbers = (parameters: Body): Promise<JsonAnswer> =>
    env.visit({
      fullUrl: `https://www.example.no/ad/7?gclid=${String(parameters.gclid ?? '')}`,
      trackingId: 'visitor-conv',
      fullReferrer: 'https://www.google.com/',
      parameters,
      requestIpAddress: '203.0.113.7',
    });

  async function callFromPage(callId: string, parameters: Body, duration: number): Promise<string> {
    const dni = await requestNumbers(parameters);
    expect(dni.status).toBe(200);
    const poolNumber = (dni.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
    const at = start.toISOString().slice(0, 19).replace('T', ' ');
    const routed = await env.route({ call_id: callId, anum: '+4798000042', bnum: poolNumber, at });
    expect(routed).toMatchObject({ status: 200, body: { action: 'dial' } });
    const record = {
      call_id: callId,
      anum: '+4798000042',
      bnum: poolNumber,
      start: at,
      duration,
      answered: 1,
    };
    const stored = await env.ingest(record);
    expect(stored.status).toBe(201);
    // The switch's retry of the same record stores and queues nothing more.
    expect((await env.ingest(record)).status).toBe(200);
    return (stored.body.cdrs as Body[])[0]!.cdr_id as string;
  }

  let cdrId: string;

  it('sends an answered call with a gclid and a GA4 client id once to each', async () => {
    await setUpIntegrations();
    cdrId = await callFromPage(
      'conv-call-1',
      { custnr: 'CONV-1', gclid: GCLID, ga_client_id: CLIENT_ID, ga_session_id: SESSION },
      95,
    );
    const listed = await env.api.read('/statistics/cdrs?custnr=CONV-1&extended=1');
    expect((listed.body.cdrs as Body[])[0]).toMatchObject({
      cdr_id: cdrId,
      gclid: GCLID,
      gbraid: null,
      wbraid: null,
      ga_client_id: CLIENT_ID,
      ga_session_id: SESSION,
      outcome_status: null,
    });

    expect(await exporter.runOnce()).toBe(2);
    expect(await exporter.runOnce()).toBe(0);

    const [upload] = ads.uploads;
    expect(upload).toMatchObject({ path: '/v21/customers/4445556666:uploadClickConversions', status: 200 });
    expect(upload!.headers).toMatchObject({
      'developer-token': ACCOUNT.developerToken,
      'login-customer-id': ACCOUNT.managerCustomerId,
    });
    expect(upload!.body).toEqual({
      partialFailure: true,
      conversions: [
        {
          gclid: GCLID,
          conversionAction: 'customers/4445556666/conversionActions/777',
          conversionDateTime: `${start.toISOString().slice(0, 19).replace('T', ' ')}+00:00`,
          orderId: `trackline-${cdrId}-call`,
        },
      ],
    });
    expect(ads.accepted).toHaveLength(1);
    // Never the caller's number: enhanced conversions are off.
    expect(JSON.stringify(ads.uploads)).not.toContain('98000042');

    expect(ga4.hits).toHaveLength(1);
    expect(ga4.hits[0]).toMatchObject({
      measurementId: MEASUREMENT.measurementId,
      validationMessages: [],
      collected: true,
    });
    expect(ga4.collected).toEqual([
      {
        measurementId: MEASUREMENT.measurementId,
        clientId: CLIENT_ID,
        timestampMicros: start.getTime() * 1000,
        name: 'phone_call',
        params: { session_id: SESSION, engagement_time_msec: 1, call_duration: 95 },
      },
    ]);
    expect(JSON.stringify(ga4.hits)).not.toContain('98000042');
  });

  it('posts the outcome back: a call.outcome webhook, a second conversion and event, once', async () => {
    const fields = { status: 'sale', value: '1500', currency: 'NOK', note: 'Car sold' };
    const posted = await env.api.write('PUT', `/cdrs/${cdrId}/outcome`, fields);
    expect(posted.status).toBe(200);
    expect((await env.api.write('PUT', '/cdrs/outcome?call_id=conv-call-1', fields)).body).toEqual(
      posted.body,
    );

    expect(await exporter.runOnce()).toBe(2);
    expect(ads.acceptedWithOrderId(`trackline-${cdrId}-sale`).map((entry) => entry.conversion)).toEqual([
      {
        gclid: GCLID,
        conversionAction: 'customers/4445556666/conversionActions/888',
        conversionDateTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00:00$/),
        orderId: `trackline-${cdrId}-sale`,
        conversionValue: 1500,
        currencyCode: 'NOK',
      },
    ]);
    expect(ga4.eventsNamed('close_convert_lead', CLIENT_ID)).toEqual([
      expect.objectContaining({
        params: { session_id: SESSION, engagement_time_msec: 1, value: 1500, currency: 'NOK' },
      }),
    ]);
    expect(ga4.hits.every((hit) => hit.validationMessages.length === 0)).toBe(true);

    await dispatcher.runOnce();
    const events = receiver.received.map((hook) => JSON.parse(hook.body) as { type: string; data: Body });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'call.outcome',
        data: expect.objectContaining({
          cdr_id: cdrId,
          outcome_status: 'sale',
          outcome_value: '1500.00',
          outcome_currency: 'NOK',
          gclid: GCLID,
        }),
      }),
    ]);

    const customers = await env.api.read('/customers?custnr=CONV-1');
    const customerId = (customers.body.customers as Body[])[0]!.customer_id as string;
    const month = start.toISOString().slice(0, 7);
    const report = await env.api.read(`/customers/${customerId}/reports/monthly?month=${month}`);
    expect((report.body.reports as Body[])[0]!.outcomes).toEqual([
      { status: 'lead', calls: '0', sums: [] },
      { status: 'qualified', calls: '0', sums: [] },
      { status: 'sale', calls: '1', sums: [{ currency: 'NOK', value: '1500.00' }] },
      { status: 'not_a_lead', calls: '0', sums: [] },
    ]);
  });

  it('counts a conversion sent again once, and keeps a refused one dead with Google’s reason', async () => {
    // As if the answer to the upload had been lost: the row goes out again.
    await env.stores.dataSource.query(
      `UPDATE conversion_outbox SET status = 'pending', next_attempt_at = now() - interval '1 second' WHERE order_id = $1 AND destination = 'google_ads'`,
      [`trackline-${cdrId}-call`],
    );
    expect(await exporter.runOnce()).toBe(1);
    expect(ads.acceptedWithOrderId(`trackline-${cdrId}-call`)).toHaveLength(1);
    expect((await outbox.forRecord(await partnerId(), cdrId)).map((row) => row.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'sent',
    ]);

    const unknownClick = await callFromPage(
      'conv-call-2',
      { custnr: 'CONV-1', gclid: 'EAIaIQobChMIunknown' },
      40,
    );
    // Answered, longer than the 30 s set, with a click id: queued for Google Ads only (no GA4 client id).
    expect(await exporter.runOnce()).toBe(1);
    const rows = await outbox.forRecord(await partnerId(), unknownClick);
    expect(rows).toEqual([
      expect.objectContaining({
        destination: 'google_ads',
        status: 'dead',
        attempts: 1,
        lastError: expect.stringContaining('CLICK_NOT_FOUND'),
      }),
    ]);
    expect(await exporter.runOnce()).toBe(0);
    // The operator sends dead conversions again; Google still refuses this one, with the same reason.
    expect(await env.operator('conversions:requeue-dead', '--partner', PARTNER.advId)).toEqual([
      'Requeued 1 dead conversion',
    ]);
    expect(await exporter.runOnce()).toBe(1);
    expect(await outbox.forRecord(await partnerId(), unknownClick)).toEqual([
      expect.objectContaining({
        status: 'dead',
        attempts: 1,
        lastError: expect.stringContaining('CLICK_NOT_FOUND'),
      }),
    ]);

    // Too short for the partner's setting: nothing is queued.
    const short = await callFromPage('conv-call-3', { custnr: 'CONV-1', gclid: GCLID }, 20);
    expect(await outbox.forRecord(await partnerId(), short)).toEqual([]);
  });

  async function partnerId(): Promise<string> {
    const rows: Array<{ id: string }> = await env.stores.dataSource.query(
      `SELECT id::text AS id FROM partners WHERE name = $1`,
      [PARTNER.advId],
    );
    return rows[0]!.id;
  }
});
