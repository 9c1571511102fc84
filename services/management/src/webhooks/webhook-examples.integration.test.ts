import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCallAttribution, encodeCustomerSeenEvent, partnerKeys } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import {
  startNotificationWorker,
  type RunningNotificationWorker,
} from '../composition/start-notification-worker';
import { DigestClient } from '../test-support/digest-client';
import { rawRequest } from '../test-support/https-request';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';

const DOCUMENT = join(__dirname, '..', '..', '..', '..', 'docs', 'webhooks.md');
const TELEPHONY_TOKEN = 'switch-token-for-the-webhook-examples';
/** Values that differ on every run: when the event happened or was stored, generated UUIDs. */
const VARIABLE = new Set(['timestamp', 'uuid', 'pricing_model_id']);

interface Body {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** docs/webhooks.md: each ```json block after `<!-- example: <event> -->`. */
function documentedExamples(): Map<string, Body> {
  const text = readFileSync(DOCUMENT, 'utf8');
  const examples = new Map<string, Body>();
  for (const match of text.matchAll(/<!-- example: ([a-z.]+) -->\s*```json\n([\s\S]*?)```/g)) {
    examples.set(match[1]!, JSON.parse(match[2]!) as Body);
  }
  return examples;
}

/** Same keys in the same order, same value types; equal values except variable fields. */
function expectSameShape(actual: unknown, example: unknown, where = '$'): void {
  if (example === null || typeof example !== 'object' || Array.isArray(example)) {
    expect({ where, type: typeof actual, isNull: actual === null }).toEqual({
      where,
      type: typeof example,
      isNull: example === null,
    });
    if (!VARIABLE.has(where.split('.').pop()!))
      expect({ where, value: actual }).toEqual({ where, value: example });
    return;
  }
  const record = actual as Record<string, unknown>;
  expect({ where, keys: Object.keys(record) }).toEqual({ where, keys: Object.keys(example) });
  for (const [key, value] of Object.entries(example)) expectSameShape(record[key], value, `${where}.${key}`);
}

// The payloads docs/webhooks.md shows are the ones the system sends: the partner sets up through the
// API, the switch reports three calls (one a pool-number call with its visitor session, earning
// commission), the notification worker process delivers to a real receiver, and each documented
// example must match what arrived (timestamps and UUIDs aside), signature verified.
describe('docs/webhooks.md examples', () => {
  let stores: TestStores;
  let service: RunningService;
  let worker: RunningNotificationWorker | undefined;
  let receiver: WebhookReceiver;
  let api: DigestClient;

  beforeAll(async () => {
    stores = await createTestStores();
    receiver = await startWebhookReceiver();
    await createDigestPartner(stores, 'acme', 'correct horse', ['127.0.0.1']);
    const now = new Date('2026-03-02T08:00:00Z');
    await stores.services.numbers.add('acme', 'static', ['+4721000001'], now);
    await stores.services.numbers.add('acme', 'pool', ['+4791000001'], now);
    service = await startTestService(
      testConfig(stores, {
        TELEPHONY_TOKEN,
        WEBHOOK_INSECURE_HOSTS: '127.0.0.1',
        CUSTOMER_EVENTS_BLOCK_MS: '50',
      }),
      { consumeCustomerEvents: true },
    );
    api = new DigestClient(service.port, 'acme-api', 'correct horse');
  });

  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await service?.close();
    await stores?.release();
  });

  async function send(
    method: string,
    path: string,
    fields: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const answer = await api.request({
      method,
      path,
      headers: { 'Content-Type': 'application/x-www-form-urlencode' },
      body: new URLSearchParams(fields).toString(),
    });
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.json() as Record<string, unknown>;
  }

  async function ingest(records: unknown[]): Promise<void> {
    const answer = await rawRequest({
      port: service.port,
      method: 'POST',
      path: '/telephony/cdrs',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TELEPHONY_TOKEN}` },
      body: JSON.stringify(records),
    });
    const body = answer.json() as { errors: unknown[] };
    if (answer.status !== 200 || body.errors.length > 0) throw new Error(`ingest: ${answer.text}`);
  }

  it('match what a receiver gets', async () => {
    const created = await send('POST', '/v1/webhooks', { url: receiver.url });
    const secret = (created.webhooks as Array<{ secret: string }>)[0]!.secret;
    await send('POST', '/v1/customers', {
      name: 'Kari Nordmann AS',
      custnr: '100',
      email: 'post@kari.example',
    });
    const model = await send('POST', '/v1/pricing_models', {
      name: 'CPL weekdays',
      type: '0',
      unique_caller_time: '0',
      conditions: JSON.stringify([
        {
          cost_per_lead: '25.00',
          min_duration: '30',
          from_time: '08:00',
          to_time: '16:00',
          weekdays: 'mon,tue,wed,thu,fri',
        },
      ]),
    });
    const pricingModelId = (model.pricing_models as Array<{ pricing_model_id: string }>)[0]!.pricing_model_id;
    await send('POST', '/v1/customers/1/campaigns', {
      name: 'Spring sale',
      pricing_model_id: pricingModelId,
    });
    await send('POST', '/v1/sources', {
      customer_id: '1',
      name: 'Main ad',
      phonenr: '22334455',
      media: 'finn.no',
      campaign_id: '1',
    });
    // What the replacement service records when it routes a call to the pool number of a visitor's
    // session (docs/redis-keys.md).
    const redis = new Redis(stores.redis.url);
    try {
      await redis.set(
        partnerKeys(stores.redis.keyPrefix, 'acme').call('call-1001'),
        encodeCallAttribution({
          callId: 'call-1001',
          advId: 'acme',
          anum: '+4798765432',
          bnum: '+4791000001',
          at: '2026-03-02T09:15:00.000Z',
          action: 'dial',
          target: '+4722334455',
          sourceId: '1',
          customerId: '1',
          vmGreetingId: null,
          sessionId: '0f6c2a9e-5b1d-4c7a-9e3f-2d8b6a4c1e70',
          trackingId: 'ad-1234',
          fullUrl: 'https://www.example.no/ad/1234?utm_source=newsletter',
          fullReferrer: 'https://www.google.com/',
          custnr: null,
          parameters: { adId: '1234' },
          quarantined: false,
          kind: 'session',
          boundAt: Date.parse('2026-03-02T09:11:00.000Z'),
        }),
      );
      // A visitor's request named a customer the partner had not created (docs/webhooks.md): the
      // service's customer-seen consumer creates it, with its customer.created delivery.
      await redis.xadd(
        partnerKeys(stores.redis.keyPrefix, 'acme').customerEvents,
        '*',
        ...encodeCustomerSeenEvent({ advId: 'acme', custnr: 'D-77', custname: 'Ola Bil AS', at: Date.now() }),
      );
    } finally {
      redis.disconnect();
    }
    await ingest([
      {
        call_id: 'call-1001',
        anum: '+4798765432',
        bnum: '+4791000001',
        start: '2026-03-02 09:15:00',
        duration: 95,
        answered: 1,
      },
      {
        call_id: 'call-1002',
        anum: '+4741234567',
        bnum: '+4721000001',
        start: '2026-03-02 09:30:00',
        duration: 0,
        answered: 0,
      },
      {
        call_id: 'call-1003',
        anum: '+4722998877',
        bnum: '+4721000001',
        start: '2026-03-02 09:45:00',
        duration: 21,
        answered: 0,
        voicemail: 1,
      },
    ]);

    worker = await startNotificationWorker({
      config: testConfig(stores, { WEBHOOK_INSECURE_HOSTS: '127.0.0.1', NOTIFY_POLL_MS: '20' }),
      logger: createLogger({ service: 'webhook-examples', level: 'silent' }),
    });
    // customer.created ×2, call.completed ×3, call.missed ×2, voicemail.new.
    for (let i = 0; i < 2000 && receiver.received.length < 8; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(receiver.received).toHaveLength(8);
    const bodies = receiver.received.map(
      (request) => new Webhook(secret).verify(request.body, request.headers) as Body,
    );

    expect(
      bodies
        .filter((body) => body.type === 'customer.created')
        .map((body) => [body.data.custnr, body.data.name]),
    ).toEqual(
      expect.arrayContaining([
        ['100', 'Kari Nordmann AS'],
        ['D-77', 'Ola Bil AS'],
      ]),
    );
    const examples = documentedExamples();
    const pick = (type: string, cdrId?: string): Body | undefined =>
      bodies.find((body) => body.type === type && (cdrId === undefined || body.data.cdr_id === cdrId));
    const actual = new Map<string, Body | undefined>([
      ['call.completed', pick('call.completed', '1')],
      ['call.missed', pick('call.missed', '2')],
      ['voicemail.new', pick('voicemail.new', '3')],
      [
        'customer.created',
        bodies.find((body) => body.type === 'customer.created' && body.data.custnr === '100'),
      ],
    ]);
    if (process.env.PRINT_WEBHOOK_EXAMPLES === '1') {
      for (const [type, body] of actual) console.log(type, JSON.stringify(body, null, 2));
    }
    expect([...examples.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [type, example] of examples) expectSameShape(actual.get(type), example, type);
  });

  it('has a worked signature example that the standardwebhooks library agrees with', () => {
    const block = /<!-- signature-example -->\s*```text\n([\s\S]*?)```/.exec(
      readFileSync(DOCUMENT, 'utf8'),
    )![1]!;
    const field = (name: string): string => new RegExp(`^${name}\\s+(.*)$`, 'm').exec(block)![1]!;
    const signature = new Webhook(field('secret')).sign(
      field('webhook-id'),
      new Date(Number(field('webhook-timestamp')) * 1000),
      field('body'),
    );
    expect(signature).toBe(field('webhook-signature'));
  });
});
