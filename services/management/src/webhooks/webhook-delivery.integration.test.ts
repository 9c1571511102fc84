import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@trackline/platform';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { composeCdrFeature } from '../composition/cdrs-composition';
import type { CdrFeature } from '../cdrs/create-cdrs';
import { runCli } from '../cli/run-cli';
import type { CustomerValues } from '../customers/customer';
import {
  createDigestPartner,
  createTestStores,
  testConfig,
  type TestStores,
} from '../test-support/test-service';
import { createWebhookDispatcher, MAX_RESPONSE_BYTES } from '../composition/start-webhook-dispatcher';
import { WebhookSender } from './webhook-sender';
import type { Webhook as StoredWebhook, WebhookEventType } from './webhook';
import { TypeormWebhookDeliveriesStore } from './webhook-deliveries.store';
import type { WebhookDispatcher } from './webhook-dispatcher';
import { customerSeenByConsumer } from '../test-support/customer-seen';
import { newWebhookSecret } from './webhook-secret';
import { InsecureHosts, systemResolver, type HostResolver } from './webhook-url';
import { WebhooksService } from './webhooks.service';
import { TypeormWebhooksStore } from './webhooks.store';
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../test-support/webhook-receiver';

const logger = createLogger({ service: 'webhook-test', level: 'silent' });
const NOW = new Date('2026-03-02T12:00:00Z');

interface DeliveryRow {
  message_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
}

// Webhook delivery end to end against real HTTP receivers started here: the event is stored with
// its delivery rows (CDR ingestion, POST /customers, the customer-seen upsert), the dispatcher signs
// and sends them, and the receiver checks the signature with the standardwebhooks package.
describe('webhook delivery', () => {
  let stores: TestStores;
  let redis: Redis;
  let cdrs: CdrFeature;
  let service: WebhooksService;
  let resolve: HostResolver;
  let partnerCount = 0;
  const receivers: WebhookReceiver[] = [];
  const dispatchers: WebhookDispatcher[] = [];

  beforeAll(async () => {
    stores = await createTestStores();
    redis = new Redis(stores.redis.url);
    cdrs = composeCdrFeature({
      dataSource: stores.dataSource,
      redis,
      keyPrefix: stores.redis.keyPrefix,
      telephonyToken: undefined,
      metrics: { cdrIngested: () => undefined, cdrBatch: () => undefined },
    });
    // The test's own resolver: real for everything but the names a test points somewhere.
    const names = new Map<string, string[]>();
    resolve = async (host) => names.get(host) ?? systemResolver(host);
    (resolve as unknown as { names: Map<string, string[]> }).names = names;
    service = new WebhooksService({
      webhooks: new TypeormWebhooksStore(stores.dataSource.manager),
      deliveries: new TypeormWebhookDeliveriesStore(stores.dataSource.manager),
      insecureHosts: new InsecureHosts(['127.0.0.1']),
      resolve: (host) => resolve(host),
      newSecret: newWebhookSecret,
    });
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  afterAll(async () => {
    redis.disconnect();
    await stores?.release();
  });

  function names(): Map<string, string[]> {
    return (resolve as unknown as { names: Map<string, string[]> }).names;
  }

  async function receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver(...args);
    receivers.push(started);
    return started;
  }

  function dispatcher(env: Record<string, string> = {}): WebhookDispatcher {
    const created = createWebhookDispatcher({
      dataSource: stores.dataSource,
      config: testConfig(stores, {
        WEBHOOK_INSECURE_HOSTS: '127.0.0.1',
        WEBHOOK_BASE_DELAY_MS: '10',
        WEBHOOK_TIMEOUT_MS: '1000',
        NOTIFY_LEASE_MS: '5000',
        NOTIFY_POLL_MS: '20',
        ...env,
      }),
      workerId: `test-worker-${dispatchers.length}`,
      logger,
      resolve: (host) => resolve(host),
    });
    dispatchers.push(created);
    return created;
  }

  /** A partner with a static number +47400000NN on an open source of customer K-1. */
  async function partner(): Promise<{ id: string; name: string; number: string; customerId: string }> {
    partnerCount += 1;
    const name = `p${partnerCount}`;
    const { id } = await createDigestPartner(stores, name, 'password-for-tests', ['127.0.0.1']);
    const number = `+474000${String(partnerCount).padStart(4, '0')}`;
    const [{ id: customerId }] = (await stores.dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id::text`,
      [id],
    )) as Array<{ id: string }>;
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, $2, 'static', now())`,
      [id, number],
    );
    await stores.dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
       VALUES ($1, $2, 'Front', '+4722334455', $3, now())`,
      [id, customerId, number],
    );
    return { id, name, number, customerId };
  }

  async function webhook(
    partnerId: string,
    url: string,
    events: WebhookEventType[] = ['call.completed', 'call.missed', 'voicemail.new', 'customer.created'],
  ): Promise<StoredWebhook> {
    return service.create(partnerId, { url, events, state: '0' });
  }

  let callCount = 0;
  async function call(number: string, flags: { answered: boolean; voicemail?: boolean }): Promise<string> {
    callCount += 1;
    const [outcome] = await cdrs.ingestion.ingest(
      [
        {
          callId: `call-${callCount}`,
          anum: '+4798765432',
          bnum: number,
          cnum: null,
          start: new Date('2026-03-02T09:00:00Z'),
          durationSeconds: flags.answered ? 65 : 0,
          answered: flags.answered,
          voicemail: flags.voicemail === true,
          recording: null,
        },
      ],
      NOW,
    );
    // A failed record carries the fault behind it (batch isolation keeps it off the wire, not from us).
    if (!outcome!.ok) throw outcome!.cause instanceof Error ? outcome!.cause : new Error(outcome!.message);
    return outcome!.cdr.id;
  }

  async function deliveries(webhookId: string): Promise<DeliveryRow[]> {
    return stores.dataSource.query(
      `SELECT message_id, event_type, status, attempts, last_status_code, last_error
         FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id`,
      [webhookId],
    );
  }

  /** Runs the dispatcher's rounds until `done` holds (each round waits for its deliveries). */
  async function deliverUntil(worker: WebhookDispatcher, done: () => Promise<boolean>): Promise<void> {
    for (let round = 0; round < 200; round++) {
      if (await done()) return;
      await worker.runOnce();
      await sleep(15);
    }
    throw new Error('deliveries did not settle');
  }

  function verified(hook: StoredWebhook, request: ReceivedWebhook): unknown {
    return new Webhook(hook.secret).verify(request.body, request.headers);
  }

  it("keeps a call event's record start on its deliveries, and still sends rows queued without it", async () => {
    const { id, number } = await partner();
    const target = await receiver();
    const hook = await webhook(id, target.url);
    const kept = await call(number, { answered: true });
    const older = await call(number, { answered: true });
    const rows: Array<{ cdr_id: string; same: boolean }> = await stores.dataSource.query(
      `SELECT d.cdr_id::text AS cdr_id, d.cdr_start = c.start AS same
         FROM webhook_deliveries d JOIN cdrs c ON c.id = d.cdr_id
        WHERE d.webhook_id = $1 ORDER BY d.id`,
      [hook.id],
    );
    expect(rows).toEqual([
      { cdr_id: kept, same: true },
      { cdr_id: older, same: true },
    ]);
    // As a row queued before the start was kept.
    await stores.dataSource.query(`UPDATE webhook_deliveries SET cdr_start = NULL WHERE cdr_id = $1`, [
      older,
    ]);

    await deliverUntil(dispatcher(), async () =>
      (await deliveries(hook.id)).every((row) => row.status === 'sent'),
    );
    const sent = target.received.map(
      (request) => (verified(hook, request) as { data: { cdr_id: string } }).data,
    );
    expect(sent.map((data) => data.cdr_id).sort()).toEqual([kept, older].sort());
    expect(sent.every((data) => (data as Record<string, unknown>).bnum === number)).toBe(true);
  });

  it("shows the caller whole in a call event only while the partner's setting says so at the claim", async () => {
    const { id, number } = await partner();
    const target = await receiver();
    const hook = await webhook(id, target.url);
    const showAnum = (on: boolean) =>
      stores.dataSource.query(`UPDATE partners SET show_full_anum = $2 WHERE id = $1`, [id, on]);
    const anums = async () => {
      await deliverUntil(dispatcher(), async () =>
        (await deliveries(hook.id)).every((row) => row.status === 'sent'),
      );
      const sent = target.received
        .splice(0)
        .map((request) => verified(hook, request) as { data: { anum: string } });
      return sent.map((body) => body.data.anum);
    };
    // Queued while the setting was off, claimed after it was turned on: the claim's setting counts.
    await call(number, { answered: true });
    await showAnum(true);
    expect(await anums()).toEqual(['+4798765432']);
    await call(number, { answered: true });
    await showAnum(false);
    expect(await anums()).toEqual(['+4798765xxx']);
  });

  it('delivers each event type once, signed so that standardwebhooks verifies it', async () => {
    const { id, name, number, customerId } = await partner();
    const target = await receiver();
    const hook = await webhook(id, target.url);
    const answered = await call(number, { answered: true });
    const missed = await call(number, { answered: false });
    const voicemail = await call(number, { answered: false, voicemail: true });
    const posted = await stores.services.customers.create(id, customerValues('Ola', 'K-2'));
    const consumer = customerSeenByConsumer(stores.dataSource);
    expect(await consumer.seen({ id, name }, 'K-3', { name: 'Per' })).toBe('created');
    // A customer seen again is no new customer.
    expect(await consumer.seen({ id, name }, 'K-3', { name: 'Per' })).toBe('unchanged');

    // At most four in flight to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY): two rounds.
    const worker = dispatcher();
    await deliverUntil(worker, async () => (await deliveries(hook.id)).every((row) => row.status === 'sent'));

    const bodies = target.received.map((request) => verified(hook, request)) as Array<{
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    }>;
    const events = bodies.map((body) => `${body.type} ${String(body.data.cdr_id ?? body.data.custnr)}`);
    expect(events.sort()).toEqual(
      [
        `call.completed ${answered}`,
        `call.completed ${missed}`,
        `call.missed ${missed}`,
        `call.completed ${voicemail}`,
        `call.missed ${voicemail}`,
        `voicemail.new ${voicemail}`,
        'customer.created K-2',
        'customer.created K-3',
      ].sort(),
    );
    // Each delivery once, each with its own id, and the id is the one stored for it.
    const ids = target.received.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(8);
    const rows = await deliveries(hook.id);
    expect(rows.map((row) => row.message_id).sort()).toEqual([...ids].sort());
    expect(
      rows.every((row) => row.status === 'sent' && row.attempts === 1 && row.last_status_code === 200),
    ).toBe(true);
    for (const request of target.received) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    }
    // data: the extended CDR record, as GET /statistics/cdrs?extended=1 shows it.
    const completed = bodies.find((body) => body.type === 'call.completed' && body.data.cdr_id === answered)!;
    expect(completed.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(completed.data).toMatchObject({
      cdr_id: answered,
      start: '2026-03-02 09:00:00',
      duration: '65',
      anum: '+4798765xxx',
      bnum: number,
      customer_id: customerId,
      custnr: 'K-1',
      answered: '1',
      voicemail: '0',
      commission: null,
      session_id: null,
      parameters: null,
    });
    const created = bodies.find((body) => body.type === 'customer.created' && body.data.custnr === 'K-2')!;
    expect(created.data).toMatchObject({
      customer_id: posted.id,
      name: 'Ola',
      custnr: 'K-2',
      uuid: posted.uuid,
    });
    // A signature under another secret does not verify.
    expect(() =>
      new Webhook(newWebhookSecret()).verify(target.received[0]!.body, target.received[0]!.headers),
    ).toThrow('No matching signature found');
  });

  it('stores the record and its deliveries together or not at all', async () => {
    const { id, name, number } = await partner();
    const target = await receiver();
    const hook = await webhook(id, target.url);
    // The outbox cannot be written: the call record and the customer are not stored either.
    await stores.dataSource.query('ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_away');
    try {
      await expect(call(number, { answered: true })).rejects.toThrow(/webhook_deliveries/);
      await expect(stores.services.customers.create(id, customerValues('Ola', 'K-atomic'))).rejects.toThrow(
        /webhook_deliveries/,
      );
      const consumer = customerSeenByConsumer(stores.dataSource);
      await expect(consumer.seen({ id, name }, 'K-seen-atomic')).rejects.toThrow(/webhook_deliveries/);
    } finally {
      await stores.dataSource.query('ALTER TABLE webhook_deliveries_away RENAME TO webhook_deliveries');
    }
    const [{ cdrs, customers }] = (await stores.dataSource.query(
      `SELECT (SELECT count(*)::int FROM cdrs WHERE call_id = $2) AS cdrs,
              (SELECT count(*)::int FROM customers WHERE partner_id = $1 AND custnr IN ('K-atomic', 'K-seen-atomic')) AS customers`,
      [id, `call-${callCount}`],
    )) as Array<{ cdrs: number; customers: number }>;
    expect({ cdrs, customers }).toEqual({ cdrs: 0, customers: 0 });
    // A customer refused (custnr taken) leaves no delivery behind.
    await expect(stores.services.customers.create(id, customerValues('Kari', 'K-1'))).rejects.toThrow(
      'custnr: is already used by another customer',
    );
    expect(await deliveries(hook.id)).toEqual([]);
  });

  it('sends only the subscribed events, nothing to a paused webhook, and nothing to another partner', async () => {
    const acme = await partner();
    const other = await partner();
    const missedOnly = await receiver();
    const paused = await receiver();
    const others = await receiver();
    const missedHook = await webhook(acme.id, missedOnly.url, ['call.missed']);
    const pausedHook = await webhook(acme.id, paused.url);
    await service.update(acme.id, pausedHook.id, { state: '1' }, new Date());
    await webhook(other.id, others.url);

    await call(acme.number, { answered: true });
    const missed = await call(acme.number, { answered: false });
    await dispatcher().runOnce();

    expect(missedOnly.received.map((request) => verified(missedHook, request))).toEqual([
      expect.objectContaining({ type: 'call.missed', data: expect.objectContaining({ cdr_id: missed }) }),
    ]);
    expect(paused.received).toEqual([]);
    expect(others.received).toEqual([]);
    expect(await deliveries(pausedHook.id)).toEqual([]);
  });

  it('keeps retrying while the receiver is down, then delivers everything with the same webhook-id', async () => {
    const { id, number } = await partner();
    const target = await receiver();
    const hook = await webhook(id, target.url, ['call.completed']);
    await target.stop();
    const calls = [await call(number, { answered: true }), await call(number, { answered: true })];
    const worker = dispatcher();
    await deliverUntil(worker, async () => (await deliveries(hook.id)).every((row) => row.attempts >= 3));
    const failing = await deliveries(hook.id);
    expect(failing.map((row) => [row.status, row.last_status_code])).toEqual([
      ['pending', null],
      ['pending', null],
    ]);
    expect(failing[0]!.last_error).toMatch(/ECONNREFUSED/);

    await target.restart();
    await deliverUntil(worker, async () => (await deliveries(hook.id)).every((row) => row.status === 'sent'));
    const rows = await deliveries(hook.id);
    expect(target.received.map((request) => request.headers['webhook-id']).sort()).toEqual(
      rows.map((row) => row.message_id).sort(),
    );
    expect(
      target.received
        .map((request) => (verified(hook, request) as { data: { cdr_id: string } }).data.cdr_id)
        .sort(),
    ).toEqual([...calls].sort());
  });

  it('retries 5xx, 408 and 429 with the same webhook-id, and gives up at once on any other 4xx', async () => {
    const { id, number } = await partner();
    const answers = new Map<string, number[]>();
    const target = await receiver((request) => {
      const id = request.headers['webhook-id']!;
      const queue = answers.get(id) ?? [];
      return { status: queue.shift() ?? 200, body: 'receiver says no' };
    });
    const hook = await webhook(id, target.url, ['call.completed']);
    const plan = [[500, 503, 502], [408, 429], [404], [410], [400]];
    for (let i = 0; i < plan.length; i++) await call(number, { answered: true });
    const rows = await deliveries(hook.id);
    rows.forEach((row, index) => answers.set(row.message_id, [...plan[index]!]));

    const worker = dispatcher();
    await deliverUntil(worker, async () =>
      (await deliveries(hook.id)).every((row) => row.status === 'sent' || row.status === 'dead'),
    );
    expect(
      (await deliveries(hook.id)).map((row) => [
        row.status,
        row.attempts,
        row.last_status_code,
        row.last_error,
      ]),
    ).toEqual([
      ['sent', 4, 200, null],
      ['sent', 3, 200, null],
      ['dead', 1, 404, 'receiver answered 404: receiver says no'],
      ['dead', 1, 410, 'receiver answered 410: receiver says no'],
      ['dead', 1, 400, 'receiver answered 400: receiver says no'],
    ]);
    const attemptsPerId = new Map<string, number>();
    for (const request of target.received) {
      verified(hook, request);
      const key = request.headers['webhook-id']!;
      attemptsPerId.set(key, (attemptsPerId.get(key) ?? 0) + 1);
    }
    expect(rows.map((row) => attemptsPerId.get(row.message_id))).toEqual([4, 3, 1, 1, 1]);
  });

  it('marks a delivery dead after the last attempt, shows it, and notifications:requeue-dead sends it again', async () => {
    const { id, name, number } = await partner();
    let up = false;
    const target = await receiver(() => ({ status: up ? 204 : 503 }));
    const hook = await webhook(id, target.url, ['call.missed']);
    await call(number, { answered: false });
    const worker = dispatcher({ WEBHOOK_MAX_ATTEMPTS: '2' });
    await deliverUntil(worker, async () => (await deliveries(hook.id))[0]!.status === 'dead');
    const [dead] = await deliveries(hook.id);
    expect(dead).toMatchObject({ status: 'dead', attempts: 2, last_status_code: 503 });
    const listed = await service.deliveries(id, hook.id, { page: 0, pageSize: 10 });
    expect(listed.deliveries).toEqual([
      expect.objectContaining({
        messageId: dead!.message_id,
        status: 'dead',
        lastStatusCode: 503,
        nextAttemptAt: null,
      }),
    ]);

    up = true;
    const out: string[] = [];
    const code = await runCli(
      ['notifications:requeue-dead', '--partner', name],
      { DATABASE_URL: stores.database.url },
      { out: (line) => out.push(line), err: (line) => out.push(line) },
    );
    expect({ code, out }).toEqual({
      code: 0,
      out: ['No dead notifications to requeue', 'Requeued 1 dead webhook delivery'],
    });
    await deliverUntil(worker, async () => (await deliveries(hook.id))[0]!.status === 'sent');
    expect(await deliveries(hook.id)).toEqual([
      { ...dead, status: 'sent', attempts: 1, last_status_code: 204, last_error: null },
    ]);
    expect(new Set(target.received.map((request) => request.headers['webhook-id']))).toEqual(
      new Set([dead!.message_id]),
    );
  });

  it("does not let a receiver that holds its answers delay another partner's deliveries", async () => {
    const slow = await partner();
    const fast = await partner();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowTarget = await receiver(() => ({ status: 200, wait: held }));
    const fastTarget = await receiver();
    const slowHook = await webhook(slow.id, slowTarget.url, ['call.completed']);
    await webhook(fast.id, fastTarget.url, ['call.completed']);
    for (let i = 0; i < 6; i++) await call(slow.number, { answered: true });

    const worker = dispatcher({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_ENDPOINT_CONCURRENCY: '2' });
    worker.start();
    await until(() => slowTarget.received.length === 2);
    const fastCall = await call(fast.number, { answered: true });
    await until(() => fastTarget.received.length === 1);
    // The slow endpoint holds two requests (its share of the slots) and still has not answered.
    expect(slowTarget.received).toHaveLength(2);
    expect((await deliveries(slowHook.id)).filter((row) => row.status === 'sending')).toHaveLength(2);
    expect(fastTarget.received[0]!.body).toContain(`"cdr_id":"${fastCall}"`);
    release();
    await until(async () => (await deliveries(slowHook.id)).every((row) => row.status === 'sent'));
  });

  it('keeps a share of the slots for a third partner while two partners hold theirs with hanging receivers', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Two partners, each with two webhooks whose receivers never answer while the test runs: with
    // two slots per endpoint each partner could hold four of the worker's six slots on its own.
    const hanging = [await partner(), await partner()];
    const holders: WebhookReceiver[] = [];
    const hangingHooks: StoredWebhook[] = [];
    for (const slow of hanging) {
      for (let hook = 0; hook < 2; hook++) {
        const target = await receiver(() => ({ status: 200, wait: held }));
        holders.push(target);
        hangingHooks.push(await webhook(slow.id, target.url, ['call.completed']));
      }
      for (let i = 0; i < 4; i++) await call(slow.number, { answered: true });
    }
    const third = await partner();
    const thirdTarget = await receiver();
    await webhook(third.id, thirdTarget.url, ['call.completed']);

    const worker = dispatcher({
      WEBHOOK_CONCURRENCY: '6',
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      WEBHOOK_TIMEOUT_MS: '30000',
      NOTIFY_LEASE_MS: '60000',
    });
    worker.start();
    const inFlight = async (): Promise<number> =>
      (await Promise.all(hangingHooks.map((hook) => deliveries(hook.id))))
        .flat()
        .filter((row) => row.status === 'sending').length;
    // Each hanging partner gets its share (6 slots / (2 partners with work + 1) = 2), not four.
    await until(async () => (await inFlight()) === 4);
    const thirdCall = await call(third.number, { answered: true });
    await until(() => thirdTarget.received.length === 1);
    expect(thirdTarget.received[0]!.body).toContain(`"cdr_id":"${thirdCall}"`);
    // Delivered while the others still hang: no timeout freed a slot for it.
    expect(await inFlight()).toBe(4);
    expect(holders.reduce((sum, target) => sum + target.received.length, 0)).toBe(4);
    release();
  });

  it('gives up on an answer that never comes at the timeout, and reads a long answer only in part', async () => {
    const { id, number } = await partner();
    const silent = await receiver(() => ({ status: 200, wait: new Promise<void>(() => undefined) }));
    const chatty = await receiver(() => ({ status: 500, body: 'x'.repeat(1_000_000) }));
    const silentHook = await webhook(id, silent.url, ['call.completed']);
    const chattyHook = await webhook(id, chatty.url, ['call.completed']);
    await call(number, { answered: true });
    await dispatcher({ WEBHOOK_TIMEOUT_MS: '300' }).runOnce();
    const [timedOut] = await deliveries(silentHook.id);
    expect(timedOut).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: 'no answer within 300 ms',
    });
    const [refused] = await deliveries(chattyHook.id);
    expect(refused).toMatchObject({ status: 'pending', last_status_code: 500 });
    expect(refused!.last_error).toBe(`receiver answered 500: ${'x'.repeat(200)}`);
    // The sender itself stops reading after 4 KiB of the megabyte.
    const sender = new WebhookSender({
      insecureHosts: new InsecureHosts(['127.0.0.1']),
      resolve: systemResolver,
      timeoutMs: 1_000,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    const answer = await sender.send({
      url: chatty.url,
      messageId: 'msg_direct',
      timestamp: new Date(),
      body: '{}',
      secret: chattyHook.secret,
    });
    expect({ status: answer.statusCode, length: answer.body.length }).toEqual({ status: 500, length: 4096 });
  });

  it('does not follow redirects', async () => {
    const { id, number } = await partner();
    const elsewhere = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    const hook = await webhook(id, redirecting.url, ['call.completed']);
    await call(number, { answered: true });
    await dispatcher().runOnce();
    expect(redirecting.received).toHaveLength(1);
    expect(elsewhere.received).toEqual([]);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'pending', last_status_code: 307 });
  });

  it('refuses at delivery a host that resolves to a private address by then (DNS rebinding)', async () => {
    const { id, number } = await partner();
    names().set('hooks.rebind.test', ['93.184.216.34']);
    const hook = await service.create(id, {
      url: 'https://hooks.rebind.test/in',
      events: ['call.completed'],
      state: '0',
    });
    names().set('hooks.rebind.test', ['169.254.169.254']);
    await call(number, { answered: true });
    await dispatcher().runOnce();
    expect((await deliveries(hook.id))[0]).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error:
        'host hooks.rebind.test resolves to 169.254.169.254, a link-local address; webhooks go to public addresses only',
    });
    names().set('hooks.rebind.test', ['8.8.8.8', '10.0.0.7']);
    await expect(
      service.create(id, { url: 'https://hooks.rebind.test/in', events: ['call.completed'], state: '0' }),
    ).rejects.toThrow('url: host hooks.rebind.test resolves to 10.0.0.7, a private address');
  });
});

function customerValues(name: string, custnr: string): CustomerValues {
  return {
    name,
    custnr,
    corporateid: null,
    email: null,
    dncsClassName: null,
    receiveMonthlyReport: false,
    serviceCallerId: false,
    customFields: {},
  };
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (await condition()) return;
    await sleep(10);
  }
  throw new Error('condition not reached');
}
