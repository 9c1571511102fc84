import {
  ManagementClient,
  ReplacementClient,
  TracklineApiError,
  verifyWebhook,
  WebhookVerificationError,
} from '@trackline/client';
import { createLogger } from '@trackline/platform';
import { createWebhookDispatcher } from '../composition/start-webhook-dispatcher';
import { startWebhookReceiver } from '../test-support/webhook-receiver';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const START = new Date('2026-03-14T09:05:00Z');

/** How many answers of the service were 401: the digest round trips a client cost. */
async function challengesAnswered(service: RunningService): Promise<number> {
  const metric = await service.app.metrics.registry.getSingleMetric('trackline_http_requests_total')!.get();
  return metric.values
    .filter((value) => value.labels.status === '401')
    .reduce((sum, value) => sum + value.value, 0);
}

async function rejection(promise: Promise<unknown>): Promise<TracklineApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TracklineApiError);
  return error as TracklineApiError;
}

/** packages/client against the real management service over HTTPS (packages/client/README.md). */
describe('@trackline/client: ManagementClient', () => {
  let stores: TestStores;
  let service: RunningService;
  const now = { at: START };
  const client = (password = 'acme pass', algorithm: 'MD5' | 'SHA-256' = 'MD5') =>
    new ManagementClient({
      baseUrl: `https://127.0.0.1:${service.port}/v1`,
      username: 'acme-api',
      password,
      algorithm,
      rejectUnauthorized: false,
    });

  beforeAll(async () => {
    stores = await createTestStores();
    const partner = await createDigestPartner(stores, 'acme', 'acme pass', ['127.0.0.1', '::1']);
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at, free_since)
       VALUES ($1, '+4721000001', 'static', '2026-03-01 00:00:00+00', '2026-03-01 00:00:00+00')`,
      [partner.id],
    );
    service = await startTestService(testConfig(stores, { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' }), {
      clock: () => now.at,
    });
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  it('runs the seed flow typed, with one digest challenge for the whole session and one more for an expired nonce', async () => {
    const api = client();
    try {
      const before = await challengesAnswered(service);
      expect(await api.ping()).toBe(true);
      const created = await api.request('post', '/customers', {
        body: { name: 'Kari Nordmann AS', custnr: '100' },
      });
      const customerId = created.data.customers[0].customer_id;
      expect([created.status, customerId, created.rateLimit?.limit]).toEqual([200, '1', 1_000_000]);

      const source = await api.request('post', '/sources', {
        body: { customer_id: customerId, name: 'Finn ad', phonenr: '22 33 44 55' },
      });
      const sourceId = source.data.sources[0].source_id;
      const updated = await api.request('put', '/sources/{source_id}', {
        params: { path: { source_id: sourceId } },
        body: {
          alt_numbers: [{ phonenr: 'voicemail', weekdays: 'sat,sun', from_time: '00:00', to_time: '24:00' }],
        },
      });
      expect(updated.data.sources[0].alt_numbers.map((rule) => [rule.phonenr, rule.weekdays])).toEqual([
        ['voicemail', 'sat,sun'],
      ]);
      const sources = await api.request('get', '/sources', { params: { query: { page: 0 } } });
      expect([sources.data.total, sources.data.sources.map((entry) => entry.destnr)]).toEqual([
        1,
        ['+4721000001'],
      ]);
      const cdrs = await api.request('get', '/statistics/cdrs', {
        params: { query: { customer_id: customerId, from_date: '2026-03-01', to_date: '2026-03-15' } },
      });
      expect([cdrs.data.total, cdrs.data.numpages, cdrs.data.cdrs]).toEqual([0, 0, []]);
      expect(await challengesAnswered(service)).toBe(before + 1);

      // Past the nonce's 5 minutes the server answers stale=true; the client retries by itself.
      now.at = new Date(START.getTime() + 301_000);
      expect(await api.ping()).toBe(true);
      expect(await challengesAnswered(service)).toBe(before + 2);
    } finally {
      api.close();
    }
  });

  it('reads and sets the call-intelligence settings and classification rules typed (docs/call-intelligence.md, API)', async () => {
    const api = client();
    try {
      const settings = await api.request('put', '/settings', { body: { transcription: '1' } });
      expect(settings.data.settings[0].transcription).toBe('1');
      const builtin = await api.request('get', '/classification_rules');
      expect(builtin.data.classification_rules[0].builtin).toBe('1');
      const put = await api.request('put', '/classification_rules', {
        body: { keywords: ['sunroof', 'tow bar'] },
      });
      const rules = put.data.classification_rules[0];
      expect([rules.builtin, rules.keywords, rules.lead]).toEqual([
        '0',
        ['sunroof', 'tow bar'],
        builtin.data.classification_rules[0].lead,
      ]);
      const refused = await rejection(
        api.request('put', '/classification_rules', { body: { lead: ['still available', ' '] } }),
      );
      expect([refused.status, refused.message]).toEqual([400, 'lead[1]: must contain at least one word']);
      const unknown = await rejection(
        api.request('get', '/cdrs/transcript', { params: { query: { call_id: 'no-such-call' } } }),
      );
      expect(unknown.status).toBe(404);
      const reset = await api.request('delete', '/classification_rules');
      expect(reset.data.classification_rules[0]).toEqual(builtin.data.classification_rules[0]);
    } finally {
      api.close();
    }
  });

  it('is an openapi-fetch client underneath: GET and POST answer { data, error, response } on the same digest session', async () => {
    const api = client();
    try {
      const before = await challengesAnswered(service);
      const created = await api.POST('/customers', { body: { name: 'Per Hansen AS', custnr: 'fetch-1' } });
      const customerId = created.data!.customers[0].customer_id;
      const read = await api.GET('/customers/{customer_id}', {
        params: { path: { customer_id: customerId } },
      });
      expect([read.response.status, read.data?.customers[0].name, read.error]).toEqual([
        200,
        'Per Hansen AS',
        undefined,
      ]);
      const missing = await api.GET('/customers/{customer_id}', { params: { path: { customer_id: '999' } } });
      expect([missing.response.status, missing.data, missing.error]).toEqual([
        404,
        undefined,
        { error: { status: 404, message: expect.stringContaining('999') } },
      ]);
      expect(await challengesAnswered(service)).toBe(before + 1);
    } finally {
      api.close();
    }
  });

  it('speaks SHA-256 too', async () => {
    const api = client('acme pass', 'SHA-256');
    try {
      expect(await api.ping()).toBe(true);
    } finally {
      api.close();
    }
  });

  it('throws the service refusal with its status, message and rate-limit state', async () => {
    const api = client();
    try {
      const invalid = await rejection(
        api.request('post', '/customers', { body: { name: 'N'.repeat(61), custnr: '101' } }),
      );
      expect([invalid.status, invalid.message, invalid.rateLimit?.limit]).toEqual([
        400,
        'name: must be at most 60 characters',
        1_000_000,
      ]);
      const missing = await rejection(
        api.request('get', '/customers/{customer_id}', { params: { path: { customer_id: '999' } } }),
      );
      expect(missing.status).toBe(404);
    } finally {
      api.close();
    }
    const wrong = client('not the password');
    try {
      expect((await rejection(wrong.ping())).status).toBe(401);
    } finally {
      wrong.close();
    }
  });
  it('asks for XML by Accept or by the .xml path form and returns its text; an XML refusal keeps its message', async () => {
    const api = client();
    try {
      const ping = await api.requestXml('get', '/miscellaneous/ping');
      expect([ping.status, ping.data, ping.rateLimit?.limit]).toEqual([
        200,
        '<?xml version="1.0" encoding="UTF-8"?>\n<ping>ok</ping>',
        1_000_000,
      ]);
      const created = await api.requestXml('post', '/customers', {
        body: { name: 'Ola & Kari <AS>', custnr: 'xml-1' },
      });
      expect(created.data).toMatch(
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<customers><customer><customer_id>\d+<\/customer_id><name>Ola &amp; Kari &lt;AS&gt;<\/name><custnr>xml-1<\/custnr>/,
      );
      const listed = await api.requestXml('get', '/customers', { params: { query: { custnr: 'xml-1' } } });
      expect(listed.data).toContain('<name>Ola &amp; Kari &lt;AS&gt;</name>');

      const invalid = await rejection(
        api.requestXml('post', '/customers', { body: { name: 'N'.repeat(61), custnr: 'xml-2' } }),
      );
      expect([invalid.status, invalid.message]).toEqual([400, 'name: must be at most 60 characters']);
      expect(invalid.body).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>\n<error><status>400</status><message>name: must be at most 60 characters</message></error>',
      );
    } finally {
      api.close();
    }
  });

  it('verifies a real delivery of the service with verifyWebhook, and refuses it altered', async () => {
    const receiver = await startWebhookReceiver();
    const api = client();
    const dispatcher = createWebhookDispatcher({
      dataSource: stores.dataSource,
      config: testConfig(stores, { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' }),
      workerId: 'client-test-worker',
      logger: createLogger({ service: 'client-test', level: 'silent' }),
    });
    try {
      const created = await api.request('post', '/webhooks', { body: { url: receiver.url } });
      const hook = created.data.webhooks[0];
      await api.request('post', '/webhooks/{webhook_id}/test', {
        params: { path: { webhook_id: hook.webhook_id } },
      });
      for (let round = 0; round < 50 && receiver.received.length === 0; round++) await dispatcher.runOnce();
      expect(receiver.received).toHaveLength(1);
      const [delivery] = receiver.received;

      // The delivery is due and stamped by the database's and the worker's own clocks, not the
      // service's test clock, so it is checked against the real time like a receiver would.
      const event = verifyWebhook(hook.secret!, delivery.headers, delivery.body);
      expect(event.type).toBe('webhook.test');
      expect(event.data).toEqual(expect.objectContaining({ webhook_id: hook.webhook_id }));
      expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const altered = delivery.body.replace(hook.webhook_id, `${hook.webhook_id}0`);
      expect(() => verifyWebhook(hook.secret!, delivery.headers, altered)).toThrow(WebhookVerificationError);
    } finally {
      await dispatcher.stop();
      api.close();
      await receiver.close();
    }
  });
});

describe('@trackline/client: ReplacementClient', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  const PARTNER = {
    advId: 'client-acme',
    username: 'client-acme-api',
    password: 'correct horse',
    signingSecret: 'a-signing-secret-of-32-characters',
  };
  let env: E2eEnvironment;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', '+4791200001');
  });

  afterAll(async () => {
    await env?.close();
  });

  const request = {
    advId: PARTNER.advId,
    fullUrl: 'https://www.example.no/ad/1',
    trackingId: 'visitor-1',
    numbers: '22 33 44 55',
    type: 'web' as const,
    fullReferrer: '',
    parameters: { custnr: 'C-1' },
    userAgent: 'Mozilla/5.0',
    requestIpAddress: '203.0.113.1',
    sessionId: '',
  };

  it('signs the body and returns the replacement numbers', async () => {
    const answer = await new ReplacementClient({
      url: `${env.replacement.baseUrl}/dynamic-numbers`,
      signingSecret: PARTNER.signingSecret,
    }).replaceNumbers(request);
    expect(answer.numbers).toEqual([
      { number_on_page: '22 33 44 55', replace_with: { e164: '+4791200001', local: '91 20 00 01' } },
    ]);
  });

  it('throws the refusal of a wrong secret as a 403', async () => {
    const error = await rejection(
      new ReplacementClient({
        url: `${env.replacement.baseUrl}/dynamic-numbers`,
        signingSecret: 'wrong',
      }).replaceNumbers(request),
    );
    expect([error.status, error.message]).toEqual([403, 'Invalid signature']);
  });
});
