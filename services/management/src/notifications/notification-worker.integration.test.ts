import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import type { DeliveryChannel } from './delivery-channel';
import { EmailChannel } from './email.channel';
import { planNotifications } from './notification-planner';
import {
  NotificationWorker,
  type NotificationWorkerSettings,
  type RecordingReader,
} from './notification-worker';
import type { OutboxStatus } from './notification-outbox.entity';
import { TypeormOutboxStore } from './outbox.store';
import type { NotificationToSend } from './outbox-writer';
import { SmsChannel } from './sms.channel';
import { attachmentOf, startSmsGateway, startSmtpReceiver } from '../test-support/notification-receivers';

const FROM = 'Trackline <noreply@notify.example.com>';
const recording = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
const recordings: RecordingReader = { read: async (cdrId) => (cdrId === '900' ? recording : null) };

interface OutboxRow {
  id: string;
  delivery_key: string;
  channel: string;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  locked_by: string | null;
}

const sms = (cdrId: string, recipient = '+4790000099'): NotificationToSend => ({
  channel: 'sms',
  kind: 'missed_call',
  recipient,
  text: `Missed call ${cdrId}`,
  cdrId,
});

describe('NotificationWorker (real Postgres, SMTP server and HTTP gateway)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormOutboxStore;
  const logLines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );

  function worker(
    channels: { email?: DeliveryChannel | null; sms?: DeliveryChannel | null },
    settings: Partial<NotificationWorkerSettings> = {},
    source: DataSource = dataSource,
    clock: () => Date = () => new Date(),
  ): NotificationWorker {
    return new NotificationWorker(
      {
        store: new TypeormOutboxStore(source.manager),
        channels: { email: channels.email ?? null, sms: channels.sms ?? null },
        recordings,
        logger,
        clock,
      },
      {
        workerId: `test-${Math.random().toString(36).slice(2)}`,
        maxAttempts: 3,
        baseDelayMs: 100,
        // Long, so a machine pausing this process never cuts a delivery off (at half the lease)
        // and turns it into a second attempt; the test of a lease running out sets its own.
        leaseMs: 20_000,
        pollMs: 10,
        batchSize: 10,
        ...settings,
      },
    );
  }

  async function rows(): Promise<OutboxRow[]> {
    return dataSource.query(
      `SELECT id::text, delivery_key, channel, status, attempts, last_error, sent_at, locked_by
       FROM notification_outbox ORDER BY notification_outbox.id`,
    );
  }

  async function until(done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error('condition not reached in time');
      await sleep(20);
    }
  }

  const allFinal = async (): Promise<boolean> =>
    (await rows()).every((row) => row.status !== 'pending' && row.status !== 'sending');

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = new TypeormOutboxStore(dataSource.manager);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  beforeEach(async () => {
    await dataSource.query('TRUNCATE notification_outbox');
  });

  it('e-mails a new voicemail with its recording attached and texts a missed call', async () => {
    const smtp = await startSmtpReceiver();
    const gateway = await startSmsGateway();
    const email = new EmailChannel({ smtpUrl: smtp.url, from: FROM, timeoutMs: 10_000 });
    try {
      const source = {
        id: '7',
        name: 'Shop',
        email: 'shop@example.com',
        smsnumber: '+4790000099',
        notifyOnMissedCall: true,
        notifyOnNewVoicemail: true,
      };
      const start = new Date('2026-03-01T10:15:00Z');
      const base = { anum: '+4790000001', bnum: '+4721000000', start, answered: false };
      // Enqueued inside a transaction, as the CDR ingestion does.
      await dataSource.transaction(async (manager) => {
        await store.enqueue(manager, [
          ...planNotifications({
            cdr: { ...base, id: '900', durationSeconds: 12, voicemail: true, hasRecording: true },
            source,
          }),
          ...planNotifications({
            cdr: { ...base, id: '901', durationSeconds: 0, voicemail: false, hasRecording: false },
            source: { ...source, email: null },
          }),
        ]);
      });

      expect(await worker({ email, sms: new SmsChannel(gateway.url) }).runOnce()).toBe(2);

      const [mailRow, smsRow] = await rows();
      expect(smtp.messages).toHaveLength(1);
      const mail = smtp.messages[0]!;
      expect(mail.to).toEqual(['shop@example.com']);
      expect(mail.messageId).toBe(`<notification-${mailRow!.delivery_key}@notify.example.com>`);
      expect(mail.raw).toMatch(/^Subject: New voicemail from \+4790000001/m);
      expect(mail.raw).toContain('Content-Type: audio/wav');
      expect(attachmentOf(mail.raw, 'voicemail-900.wav')?.equals(recording)).toBe(true);

      expect(gateway.requests.map((r) => r.body)).toEqual([
        {
          to: '+4790000099',
          text: 'Missed call from +4790000001 to +4721000000 (Shop) at 2026-03-01 10:15:00 UTC.',
          idempotency_key: smsRow!.delivery_key,
        },
      ]);
      expect(gateway.requests[0]?.idempotencyHeader).toBe(smsRow!.delivery_key);
      expect(await rows()).toEqual([
        expect.objectContaining({ channel: 'email', status: 'sent', attempts: 1, locked_by: null }),
        expect.objectContaining({ channel: 'sms', status: 'sent', attempts: 1, locked_by: null }),
      ]);
      expect((await rows()).every((row) => row.sent_at instanceof Date)).toBe(true);
    } finally {
      email.close();
      await smtp.close();
      await gateway.close();
    }
  });

  it('writes an unconfigured channel’s notification to the log and marks it logged', async () => {
    await store.enqueue(dataSource.manager, [sms('910')]);
    expect(await worker({}).runOnce()).toBe(1);
    expect(await rows()).toEqual([expect.objectContaining({ status: 'logged', attempts: 1 })]);
    expect(
      logLines.some((line) => line.includes('"text":"Missed call 910"') && line.includes('logged instead')),
    ).toBe(true);
  });

  it('leaves a rolled-back transaction without notifications', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await store.enqueue(manager, [sms('915')]);
        throw new Error('CDR insert failed');
      }),
    ).rejects.toThrow('CDR insert failed');
    expect(await rows()).toEqual([]);
  });

  it('retries a failing gateway with exponential backoff, then marks the row dead', async () => {
    const gateway = await startSmsGateway(() => 503);
    const running = worker({ sms: new SmsChannel(gateway.url) });
    try {
      await store.enqueue(dataSource.manager, [sms('920')]);
      running.start();
      await until(async () => (await rows())[0]?.status === 'dead');
      await running.stop();

      const [row] = await rows();
      expect(row).toEqual(expect.objectContaining({ status: 'dead', attempts: 3, sent_at: null }));
      expect(row?.last_error).toContain('503');
      expect(gateway.requests).toHaveLength(3);
      expect(new Set(gateway.requests.map((r) => r.body.idempotency_key))).toEqual(
        new Set([row?.delivery_key]),
      );
      const gaps = gateway.requests.slice(1).map((r, i) => r.at - gateway.requests[i]!.at);
      expect(gaps[0]).toBeGreaterThanOrEqual(100);
      expect(gaps[1]).toBeGreaterThanOrEqual(200);
    } finally {
      await running.stop();
      await gateway.close();
    }
  });

  it('delivers after transient failures, and gives up at once on a refused request', async () => {
    const gateway = await startSmsGateway((request, index) =>
      request.body.to === '+4790000400' ? 400 : index < 2 ? 500 : 200,
    );
    const running = worker({ sms: new SmsChannel(gateway.url) }, { baseDelayMs: 20 });
    try {
      await store.enqueue(dataSource.manager, [sms('930')]);
      running.start();
      await until(async () => (await rows())[0]?.status === 'sent');
      await store.enqueue(dataSource.manager, [sms('931', '+4790000400')]);
      await until(allFinal);
      await running.stop();
      expect(await rows()).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 3, last_error: null }),
        expect.objectContaining({ status: 'dead', attempts: 1 }),
      ]);
    } finally {
      await running.stop();
      await gateway.close();
    }
  });

  it('after a worker dies mid-delivery, a restarted worker delivers every notification exactly once', async () => {
    const smtp = await startSmtpReceiver();
    const gateway = await startSmsGateway();
    const email = new EmailChannel({ smtpUrl: smtp.url, from: FROM, timeoutMs: 10_000 });
    const smsChannel = new SmsChannel(gateway.url);
    // Long, so the rows stay with the dead worker however slow this machine is; the restarted
    // worker's clock is moved past it instead of the test waiting it out.
    const leaseMs = 60_000;
    try {
      await store.enqueue(dataSource.manager, [
        ...['940', '941', '942', '943', '944', '945'].map((id) => sms(id)),
        {
          channel: 'email',
          kind: 'missed_call',
          recipient: 'a@example.com',
          subject: 'Missed',
          text: 'x',
          cdrId: '946',
        },
        {
          channel: 'email',
          kind: 'missed_call',
          recipient: 'b@example.com',
          subject: 'Missed',
          text: 'y',
          cdrId: '947',
        },
      ]);
      const before = await rows();

      // The dying worker: claims every row, gets three SMS and one e-mail out, and dies before it
      // marks anything (the process is gone; nothing of it runs again).
      const claimedAt = new Date();
      const claimed = await store.claim(
        'dying-worker',
        claimedAt,
        new Date(claimedAt.getTime() + leaseMs),
        10,
      );
      expect(claimed).toHaveLength(8);
      const signal = new AbortController().signal;
      for (const row of claimed.slice(0, 3)) {
        await smsChannel.deliver({ ...row, text: row.payload.text }, signal);
      }
      const firstMail = claimed.find((row) => row.channel === 'email')!;
      await email.deliver(
        { ...firstMail, subject: firstMail.payload.subject, text: firstMail.payload.text },
        signal,
      );

      // The restarted worker's own lease is long: each of its deliveries is cut off at half its
      // lease, and a machine pausing this process must not turn one delivery into two attempts.
      let clockAheadMs = 0;
      const restarted = worker({ email, sms: smsChannel }, { leaseMs: 20_000 }, dataSource, () => {
        return new Date(Date.now() + clockAheadMs);
      });
      // Within the dead worker's lease the rows stay with it.
      expect(await restarted.runOnce()).toBe(0);
      // The restarted worker's time passes the end of the dead worker's lease.
      clockAheadMs = leaseMs;
      restarted.start();
      await until(allFinal);
      await restarted.stop();

      const after = await rows();
      expect(after.map((row) => row.status)).toEqual(Array(8).fill('sent'));
      expect(after.map((row) => row.attempts)).toEqual(Array(8).fill(2));

      // Every SMS key reached the gateway; the three sent before the crash were sent again with the
      // same key (the documented at-least-once window) and the gateway delivered each once.
      const smsKeys = before.filter((row) => row.channel === 'sms').map((row) => row.delivery_key);
      const requestsPerKey = new Map<string, number>();
      for (const request of gateway.requests) {
        const key = String(request.body.idempotency_key);
        requestsPerKey.set(key, (requestsPerKey.get(key) ?? 0) + 1);
      }
      expect([...gateway.delivered.keys()].sort()).toEqual([...smsKeys].sort());
      expect(smsKeys.map((key) => requestsPerKey.get(key))).toEqual([2, 2, 2, 1, 1, 1]);

      // The e-mail repeat carries the same Message-ID, so it is recognisable as the same message.
      const mailKeys = before.filter((row) => row.channel === 'email').map((row) => row.delivery_key);
      const messageIds = smtp.messages.map((mail) => mail.messageId);
      expect(messageIds).toHaveLength(3);
      expect(new Set(messageIds)).toEqual(
        new Set(mailKeys.map((key) => `<notification-${key}@notify.example.com>`)),
      );

      // Had the dead worker only been frozen, its late marks are refused: the lease is no longer its.
      expect(await store.complete(claimed[0]!.id, 'dying-worker', 'sent', new Date())).toBe(false);
      expect(await store.fail(claimed[4]!.id, 'dying-worker', 'late', null)).toBe(false);
      expect((await rows()).map((row) => row.status)).toEqual(Array(8).fill('sent'));
    } finally {
      email.close();
      await smtp.close();
      await gateway.close();
    }
  });

  it('lets two workers on separate connections share the outbox without sending a row twice', async () => {
    const gateway = await startSmsGateway(async () => {
      await sleep(Math.floor(Math.random() * 5));
      return 200;
    });
    const second = createManagementDataSource(database.url);
    await second.initialize();
    const smsChannel = new SmsChannel(gateway.url);
    const workers = [
      worker({ sms: smsChannel }, { batchSize: 4, pollMs: 5 }),
      worker({ sms: smsChannel }, { batchSize: 4, pollMs: 5 }, second),
    ];
    try {
      const items = Array.from({ length: 80 }, (_, i) => sms(String(1000 + i)));
      await store.enqueue(dataSource.manager, items);
      for (const running of workers) running.start();
      await until(allFinal, 30_000);
      await Promise.all(workers.map((running) => running.stop()));

      const after = await rows();
      expect(after.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
      expect(gateway.requests).toHaveLength(80);
      expect(new Set(gateway.requests.map((r) => r.body.idempotency_key)).size).toBe(80);
      expect(gateway.delivered.size).toBe(80);
    } finally {
      await Promise.all(workers.map((running) => running.stop()));
      await second.destroy();
      await gateway.close();
    }
  });
});
