import { setTimeout as sleep } from 'node:timers/promises';
import { TracklineApiError } from '@trackline/client';
import { createLogger } from '@trackline/platform';
import {
  startNotificationWorker,
  type RunningNotificationWorker,
} from '../composition/start-notification-worker';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';
import { startSmtpReceiver } from '../test-support/notification-receivers';
import { partnerClient } from '../test-support/partner-client';
import { testConfig } from '../test-support/test-service';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver';

const PARTNER = {
  advId: 'hooks-acme',
  username: 'hooks-acme-api',
  password: 'hooks password',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const CONTACT = 'ops@acme.example';

type Body = Record<string, unknown>;

// Webhook operations (docs/webhooks.md, Delivery log; Disabled endpoints) against real receivers,
// a real SMTP server and the service's own worker: each attempt's request and answer in the log,
// a resend with the same webhook-id, an endpoint failing for the (shortened) period disabled with
// a webhook.disabled event to the partner's other endpoint and an e-mail, and enabled again.
describe('webhook operations', () => {
  jest.setTimeout(E2E_TIMEOUT_MS * 2);
  let env: E2eEnvironment;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let worker: RunningNotificationWorker;
  let good: WebhookReceiver;
  let bad: WebhookReceiver;
  let badAnswers = 500;
  let goodId: string;
  let badId: string;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER, { managementEnv: { WEBHOOK_INSECURE_HOSTS: '127.0.0.1' } });
    await env.operator('partner:update', '--name', PARTNER.advId, '--contact-email', CONTACT);
    smtp = await startSmtpReceiver();
    // A chatty receiver: its answer is longer than the log keeps.
    good = await startWebhookReceiver(() => ({ status: 200, body: `accepted ${'x'.repeat(3000)}` }));
    bad = await startWebhookReceiver(() => ({ status: badAnswers, body: 'receiver is down' }));
    goodId = await webhook(good.url);
    badId = await webhook(bad.url);
    worker = await startNotificationWorker({
      config: testConfig(env.stores, {
        SMTP_URL: smtp.url,
        WEBHOOK_INSECURE_HOSTS: '127.0.0.1',
        WEBHOOK_BASE_DELAY_MS: '100',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_DISABLE_AFTER_SECONDS: '1',
        NOTIFY_LEASE_MS: '5000',
        NOTIFY_POLL_MS: '20',
      }),
      logger: createLogger({ service: 'webhook-operations-test', level: 'silent' }),
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await Promise.all([good?.close(), bad?.close(), smtp?.close()]);
    await env?.close();
  });

  async function webhook(url: string): Promise<string> {
    const created = await env.api.write('POST', '/v1/webhooks', { url });
    expect(created.status).toBe(200);
    return (created.body.webhooks as Body[])[0]!.webhook_id as string;
  }

  async function deliveries(webhookId: string): Promise<Body[]> {
    const answer = await env.api.read(`/v1/webhooks/${webhookId}/deliveries`);
    expect(answer.status).toBe(200);
    return answer.body.deliveries as Body[];
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = await probe();
      if (found !== undefined && found !== false) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  it('logs each attempt with its request and the first KiB of the answer, never the secret', async () => {
    const queued = await env.api.write('POST', `/v1/webhooks/${goodId}/test`, {});
    expect(queued.status).toBe(202);
    const deliveryId = (queued.body.deliveries as Body[])[0]!.delivery_id as string;
    const delivery = await until('the test delivery sent', async () =>
      (await deliveries(goodId)).find((entry) => entry.delivery_id === deliveryId && entry.status === 'sent'),
    );
    const received = good.received.at(-1)!;
    expect(delivery).toMatchObject({ status: 'sent', attempts: '1', status_code: '200' });
    const exchanges = delivery.exchanges as Body[];
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toEqual({
      attempt: '1',
      requested: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      duration_ms: expect.stringMatching(/^\d+$/),
      request: {
        method: 'POST',
        url: good.url,
        webhook_timestamp: received.headers['webhook-timestamp'],
        body_bytes: String(Buffer.byteLength(received.body)),
      },
      status_code: '200',
      error: null,
      response_body: `accepted ${'x'.repeat(1024 - 'accepted '.length)}`,
    });
    expect(received.headers['webhook-id']).toBe(delivery!.message_id);
    const log = await env.api.read(`/v1/webhooks/${goodId}/deliveries`);
    expect(log.text).not.toMatch(/whsec_|webhook-signature|v1,/);

    const xml = await env.api.read(`/v1/webhooks/${goodId}/deliveries`, 'xml');
    const xmlDelivery = (xml.body.deliveries as Body).delivery as Body;
    const xmlExchange = ((Array.isArray(xmlDelivery) ? xmlDelivery[0] : xmlDelivery).exchanges as Body)
      .exchange as Body;
    expect(xmlExchange).toMatchObject({ attempt: '1', status_code: '200' });
  });

  it('resends a delivery with the same webhook-id, answered 202', async () => {
    const [sent] = await deliveries(goodId);
    const before = good.received.length;
    const resent = await env.api.write(
      'POST',
      `/v1/webhooks/${goodId}/deliveries/${sent!.delivery_id as string}/resend`,
      {},
    );
    expect(resent.status).toBe(202);
    // Due at once: the running worker may have claimed it before the answer was read.
    expect((resent.body.deliveries as Body[])[0]).toMatchObject({
      delivery_id: sent!.delivery_id,
      message_id: sent!.message_id,
      status: expect.stringMatching(/^(pending|sending)$/),
    });
    await until('the resend', async () => good.received.length > before);
    expect(good.received.at(-1)!.headers['webhook-id']).toBe(sent!.message_id);
    const after = await until('the resend logged', async () => {
      const [delivery] = await deliveries(goodId);
      return delivery!.status === 'sent' && (delivery!.exchanges as Body[]).length === 2 && delivery;
    });
    expect((after.exchanges as Body[]).map((exchange) => exchange.status_code)).toEqual(['200', '200']);

    const unknown = await env.api.write('POST', `/v1/webhooks/${goodId}/deliveries/999999/resend`, {});
    expect(unknown.status).toBe(404);
  });

  it('disables an endpoint failing for the period, tells the other endpoint and e-mails the partner', async () => {
    const queued = await env.api.write('POST', `/v1/webhooks/${badId}/test`, {});
    expect(queued.status).toBe(202);
    const messageId = (queued.body.deliveries as Body[])[0]!.message_id as string;

    const disabled = await until('the failing webhook disabled', async () => {
      const answer = await env.api.read(`/v1/webhooks/${badId}`);
      const record = (answer.body.webhooks as Body[])[0]!;
      return record.state === '2' && record;
    });
    expect(disabled).toMatchObject({ webhook_id: badId, url: bad.url, state: '2' });
    expect(bad.received.length).toBeGreaterThan(1);
    expect(new Set(bad.received.map((request) => request.headers['webhook-id']))).toEqual(
      new Set([messageId]),
    );

    // Its delivery waits rather than dying, each failed attempt in the log.
    const [waiting] = await deliveries(badId);
    expect(waiting).toMatchObject({ message_id: messageId, status: 'pending' });
    const exchanges = waiting!.exchanges as Body[];
    expect(exchanges.length).toBeGreaterThan(1);
    expect(exchanges.every((exchange) => exchange.status_code === '500')).toBe(true);
    expect(exchanges[0]).toMatchObject({ error: 'receiver answered 500', response_body: 'receiver is down' });

    const event = await until('webhook.disabled at the other endpoint', async () =>
      good.received
        .map((request) => JSON.parse(request.body) as Body)
        .find((body) => body.type === 'webhook.disabled'),
    );
    expect(event.data).toMatchObject({
      webhook_id: badId,
      url: bad.url,
      state: '2',
      failing_since: expect.any(String),
      disabled_at: expect.any(String),
    });
    const mail = await until('the e-mail to the partner', async () =>
      smtp.messages.find((message) => message.to.includes(CONTACT)),
    );
    expect(mail.raw).toMatch(new RegExp(`^Subject: Trackline disabled webhook ${badId}`, 'm'));
    expect(mail.raw).toContain(bad.url);
    // Once: the other attempts in flight found it disabled already.
    await sleep(300);
    expect(smtp.messages.filter((message) => message.to.includes(CONTACT))).toHaveLength(1);
    expect(
      good.received.filter((request) => (JSON.parse(request.body) as Body).type === 'webhook.disabled'),
    ).toHaveLength(1);

    const refused = await env.api.write(
      'POST',
      `/v1/webhooks/${badId}/deliveries/${waiting!.delivery_id as string}/resend`,
      {},
    );
    expect(refused.status).toBe(403);
  });

  it('is enabled again with state 0, and its waiting delivery goes out with its webhook-id', async () => {
    badAnswers = 200;
    const before = bad.received.length;
    const client = partnerClient(env.management.port, PARTNER.username, PARTNER.password);
    try {
      const enabled = await client.enableWebhook(badId);
      expect(enabled.status).toBe(200);
      expect(enabled.data.webhooks[0]).toMatchObject({ webhook_id: badId, state: '0' });
      const unknown = await client.resendWebhookDelivery(badId, '999999').catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(TracklineApiError);
      expect((unknown as TracklineApiError).status).toBe(404);
    } finally {
      client.close();
    }
    const [waiting] = await deliveries(badId);
    const sent = await until('the waiting delivery sent', async () => {
      const [delivery] = await deliveries(badId);
      return delivery!.status === 'sent' && delivery;
    });
    expect(sent.message_id).toBe(waiting!.message_id);
    expect(bad.received.length).toBeGreaterThan(before);
    expect(bad.received.at(-1)!.headers['webhook-id']).toBe(waiting!.message_id);
    expect((sent.exchanges as Body[]).at(-1)).toMatchObject({ status_code: '200', attempt: '1' });

    const refused = await env.api.write('PUT', `/v1/webhooks/${badId}`, { state: '2' });
    expect(refused.status).toBe(400);
  });
});
