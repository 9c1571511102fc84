import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { emailMessageId } from './email.channel';
import type { OutboxStatus } from './notification-outbox.entity';
import { TypeormOutboxStore } from './outbox.store';
import type { NotificationToSend } from './outbox-writer';
import {
  startSmsGateway,
  startSmtpReceiver,
  type ReceivedMail,
} from '../test-support/notification-receivers';
import {
  killLeftovers,
  startWorkerProcess,
  untilReached,
  type WorkerProcess,
} from '../test-support/worker-process';

// "Killing the worker mid-delivery and restarting it delivers every notification exactly once"
// (docs/notifications.md, Delivery guarantee). The worker runs in a real child process (the production
// start-up, configured through the environment) and is ended with SIGKILL while receivers hold messages they
// have already received. A second process then finishes the outbox. What this proves, and what it cannot, is
// in docs/notifications.md ("Delivery guarantee").

const FROM = 'Trackline <noreply@notify.example.com>';
const DOMAIN = 'notify.example.com';
const ROWS = 40; // 20 SMS and 20 e-mails, alternating: every claimed batch of 10 holds both
// A delivery is cut off at half the lease: long enough that a pause of this shared machine before
// the kill cannot cut off a held delivery and end its row's lease early.
const LEASE_MS = 5_000;
const ANSWER_DELAY_MS = 40; // every receiver answer is this slow, so deliveries overlap the kill
const SENT_BEFORE_HOLD = 10; // answers given before the receivers start holding theirs
// Two process starts, one lease expiry and 40 deliveries take about 7 s; the waits inside are
// bounded on their own, this only stops a hung run on a loaded machine.
const TEST_TIMEOUT_MS = 60_000;

interface RowState {
  id: string;
  delivery_key: string;
  channel: 'sms' | 'email';
  status: OutboxStatus;
  attempts: number;
}

describe('notification worker killed with SIGKILL mid-delivery (real processes)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const processes: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
  });

  afterAll(async () => {
    killLeftovers(processes);
    await dataSource.destroy();
    await database.drop();
  });

  async function outbox(): Promise<RowState[]> {
    return dataSource.query(
      'SELECT id::text, delivery_key, channel, status, attempts FROM notification_outbox ORDER BY id',
    );
  }

  function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
    return untilReached(what, done, processes, timeoutMs);
  }

  it(
    'delivers every notification; only messages received but unanswered at the kill arrive twice, under one key',
    async () => {
      // The receivers answer each message after ANSWER_DELAY_MS; once SENT_BEFORE_HOLD are answered,
      // they hold every further answer until the test releases them after the kill (as if their answer
      // went to the dead process); from then on they answer normally.
      let answered = 0;
      let holding = true;
      let releaseHeld!: () => void;
      const released = new Promise<void>((resolve) => (releaseHeld = resolve));
      const heldSms: string[] = [];
      const heldMail: string[] = [];
      const answerOrHold = async (key: string, held: string[]): Promise<void> => {
        await sleep(ANSWER_DELAY_MS);
        if (answered < SENT_BEFORE_HOLD || !holding) {
          answered += 1;
          return;
        }
        held.push(key);
        await released;
      };
      const gateway = await startSmsGateway(async (request) => {
        await answerOrHold(String(request.body.idempotency_key), heldSms);
        return 200;
      });
      const smtp = await startSmtpReceiver((mail) => answerOrHold(mail.messageId ?? '', heldMail));

      try {
        const items: NotificationToSend[] = Array.from({ length: ROWS }, (_, i) =>
          i % 2 === 0
            ? {
                channel: 'sms',
                kind: 'missed_call',
                recipient: `+47900${String(i).padStart(5, '0')}`,
                text: `Missed call ${i}`,
                cdrId: String(i + 1),
              }
            : {
                channel: 'email',
                kind: 'missed_call',
                recipient: `owner${i}@example.com`,
                subject: `Missed call ${i}`,
                text: `Missed call ${i}`,
                cdrId: String(i + 1),
              },
        );
        await new TypeormOutboxStore(dataSource.manager).enqueue(dataSource.manager, items);
        const env = {
          DATABASE_URL: database.url,
          SMTP_URL: smtp.url,
          SMTP_FROM: FROM,
          SMS_GATEWAY_URL: gateway.url,
          NOTIFY_LEASE_MS: String(LEASE_MS),
          NOTIFY_POLL_MS: '20',
          NOTIFY_BASE_DELAY_MS: '50',
          LOG_LEVEL: 'warn',
        };

        const first = await startWorkerProcess(env);
        processes.push(first);
        // Mid-delivery: some rows sent and marked, receivers holding at least one SMS and one e-mail
        // they have received, and rows nobody has claimed yet.
        await until(
          'first worker mid-delivery',
          async () =>
            heldSms.length > 0 &&
            heldMail.length > 0 &&
            (await outbox()).some((row) => row.status === 'sent'),
          15_000,
        );
        first.child.kill('SIGKILL');
        const [code, signal] = await first.exited;
        expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

        const atKill = await outbox();
        const sentBefore = atKill.filter((row) => row.status === 'sent');
        const inFlight = atKill.filter((row) => row.status === 'sending');
        const unclaimed = atKill.filter((row) => row.status === 'pending' && row.attempts === 0);
        expect(sentBefore.length).toBeGreaterThan(0);
        expect(inFlight.length).toBeGreaterThan(0);
        expect(unclaimed.length).toBeGreaterThan(0);
        expect(sentBefore.length + inFlight.length + unclaimed.length).toBe(ROWS);
        // The held messages were received by the receivers from rows the dead worker still leases.
        const heldKeys = new Set([
          ...heldSms,
          ...heldMail.map((messageId) => /notification-([0-9a-f-]+)@/.exec(messageId)![1]!),
        ]);
        const inFlightKeys = new Set(inFlight.map((row) => row.delivery_key));
        for (const key of heldKeys) expect(inFlightKeys.has(key)).toBe(true);
        // The receivers take the held messages (their answers go to a dead process).
        holding = false;
        releaseHeld();

        const second = await startWorkerProcess(env);
        processes.push(second);
        await until(
          'every row sent by the second worker',
          async () => (await outbox()).every((row) => row.status === 'sent'),
          15_000,
        );
        second.child.kill('SIGTERM');
        expect(await second.exited).toEqual([0, null]);

        const final = await outbox();
        const smsRows = final.filter((row) => row.channel === 'sms');
        const emailRows = final.filter((row) => row.channel === 'email');

        // Every notification reached its receiver, each request and message under its row's key.
        const smsReceipts = countBy(gateway.requests.map((request) => String(request.body.idempotency_key)));
        for (const request of gateway.requests) {
          expect(request.idempotencyHeader).toBe(request.body.idempotency_key);
        }
        const mailReceipts = countBy(smtp.messages.map((mail) => mail.messageId ?? 'none'));
        expect([...smsReceipts.keys()].sort()).toEqual(smsRows.map((row) => row.delivery_key).sort());
        expect([...mailReceipts.keys()].sort()).toEqual(
          emailRows.map((row) => emailMessageId(row.delivery_key, DOMAIN)).sort(),
        );
        // De-duplicated by key, each was delivered exactly once: the gateway honours the key.
        expect([...gateway.delivered.keys()].sort()).toEqual(smsRows.map((row) => row.delivery_key).sort());
        expect([...gateway.delivered.values()].every((times) => times === 1)).toBe(true);

        const receipts = (key: string): number =>
          (smsReceipts.get(key) ?? 0) + (mailReceipts.get(emailMessageId(key, DOMAIN)) ?? 0);
        // Rows sent before the kill, and rows no worker had claimed: exactly once, no duplicate at all.
        for (const row of [...sentBefore, ...unclaimed])
          expect({ key: row.delivery_key, n: receipts(row.delivery_key) }).toEqual({
            key: row.delivery_key,
            n: 1,
          });
        // Rows in flight: twice exactly when the receiver had the message and its answer was lost
        // in the kill; once otherwise (the dead worker had not reached the receiver).
        for (const row of inFlight) {
          const expected = heldKeys.has(row.delivery_key) ? 2 : 1;
          expect({ key: row.delivery_key, n: receipts(row.delivery_key) }).toEqual({
            key: row.delivery_key,
            n: expected,
          });
        }
        // Every duplicate is the same message: same Message-ID, recipient, subject and key header.
        for (const messageId of [...mailReceipts].filter(([, n]) => n > 1).map(([id]) => id)) {
          const copies = smtp.messages.filter((mail) => mail.messageId === messageId);
          expect(new Set(copies.map(mailIdentity)).size).toBe(1);
        }
        const duplicates = gateway.requests.length + smtp.messages.length - ROWS;
        expect(duplicates).toBe(heldKeys.size);
        expect(duplicates).toBeGreaterThan(0);
      } finally {
        releaseHeld();
        await gateway.close();
        await smtp.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function mailIdentity(mail: ReceivedMail): string {
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(mail.raw)?.[1] ?? '';
  return JSON.stringify([mail.to, header('Subject'), header('X-Trackline-Notification')]);
}
