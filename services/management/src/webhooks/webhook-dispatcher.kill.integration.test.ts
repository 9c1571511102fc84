import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import {
  killLeftovers,
  startWorkerProcess,
  untilReached,
  type WorkerProcess,
} from '../test-support/worker-process';
import { customerSeenByConsumer } from '../test-support/customer-seen';
import { insertTestPartners } from '../test-support/test-partners';
import { newWebhookSecret } from './webhook-secret';
import { TypeormWebhooksStore } from './webhooks.store';
import { startWebhookReceiver } from '../test-support/webhook-receiver';

// "A worker killed mid-delivery loses nothing": the worker process (the production start-up,
// configured through the environment) is killed with SIGKILL while the receiver holds requests it
// has received; a second process finishes the queue. Every delivery arrives, signed; only those
// the receiver held at the kill arrive twice, under the same webhook-id.

const CUSTOMERS = 24;
// A delivery is cut off at half the lease: long enough that a pause of this shared machine before
// the kill cannot cut off a held delivery and end its row's lease early.
const LEASE_MS = 5_000;
const ANSWERED_BEFORE_HOLD = 6;
const TEST_TIMEOUT_MS = 60_000;

interface Row {
  message_id: string;
  status: string;
}

describe('webhook dispatcher killed with SIGKILL mid-delivery (real processes)', () => {
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

  async function rows(): Promise<Row[]> {
    return dataSource.query('SELECT message_id, status FROM webhook_deliveries ORDER BY id');
  }

  function until(what: string, done: () => Promise<boolean>): Promise<void> {
    return untilReached(what, done, processes, 15_000);
  }

  it(
    'delivers every event; only requests received but unanswered at the kill arrive twice, same webhook-id',
    async () => {
      let answered = 0;
      let holding = true;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const held: string[] = [];
      const receiver = await startWebhookReceiver((request) => {
        if (answered < ANSWERED_BEFORE_HOLD || !holding) {
          answered += 1;
          return { status: 200 };
        }
        held.push(request.headers['webhook-id']!);
        return { status: 200, wait: released };
      });
      try {
        const [partnerId] = await insertTestPartners(dataSource.manager, 'acme');
        const secret = newWebhookSecret();
        await new TypeormWebhooksStore(dataSource.manager).insert(partnerId, {
          url: receiver.url,
          events: ['customer.created'],
          state: '0',
          secret,
        });
        const consumer = customerSeenByConsumer(dataSource);
        for (let i = 0; i < CUSTOMERS; i++) await consumer.seen({ id: partnerId, name: 'acme' }, `K-${i}`);
        expect(await rows()).toHaveLength(CUSTOMERS);

        const env = {
          DATABASE_URL: database.url,
          WEBHOOK_INSECURE_HOSTS: '127.0.0.1',
          WEBHOOK_ENDPOINT_CONCURRENCY: '4',
          WEBHOOK_BASE_DELAY_MS: '50',
          NOTIFY_LEASE_MS: String(LEASE_MS),
          NOTIFY_POLL_MS: '20',
          LOG_LEVEL: 'warn',
        };
        const first = await startWorkerProcess(env);
        processes.push(first);
        await until(
          'first worker mid-delivery',
          async () => held.length > 0 && (await rows()).some((row) => row.status === 'sent'),
        );
        first.child.kill('SIGKILL');
        expect(await first.exited).toEqual([null, 'SIGKILL']);
        const atKill = await rows();
        const inFlight = new Set(
          atKill.filter((row) => row.status === 'sending').map((row) => row.message_id),
        );
        for (const id of held) expect(inFlight.has(id)).toBe(true);
        expect(atKill.filter((row) => row.status === 'pending').length).toBeGreaterThan(0);
        holding = false;
        release();

        const second = await startWorkerProcess(env);
        processes.push(second);
        await until('every delivery sent', async () => (await rows()).every((row) => row.status === 'sent'));
        second.child.kill('SIGTERM');
        expect(await second.exited).toEqual([0, null]);

        const final = await rows();
        const receipts = new Map<string, number>();
        for (const request of receiver.received) {
          new Webhook(secret).verify(request.body, request.headers);
          const id = request.headers['webhook-id']!;
          receipts.set(id, (receipts.get(id) ?? 0) + 1);
        }
        expect([...receipts.keys()].sort()).toEqual(final.map((row) => row.message_id).sort());
        // Sent before the kill, or not yet claimed: exactly once. In flight at the kill: twice when
        // the receiver had the request and its answer was lost (every held one, and any the
        // receiver read from its socket only after the kill), else once.
        for (const row of final) {
          const n = receipts.get(row.message_id);
          if (!inFlight.has(row.message_id))
            expect({ id: row.message_id, n }).toEqual({ id: row.message_id, n: 1 });
          else if (held.includes(row.message_id))
            expect({ id: row.message_id, n }).toEqual({ id: row.message_id, n: 2 });
          else expect([1, 2]).toContain(n);
        }
        // A repeat is the same message: same id, same body.
        for (const [id, n] of receipts) {
          if (n < 2) continue;
          const bodies = receiver.received.filter((request) => request.headers['webhook-id'] === id);
          expect(new Set(bodies.map((request) => request.body)).size).toBe(1);
        }
        expect(receiver.received.length - CUSTOMERS).toBeGreaterThanOrEqual(held.length);
      } finally {
        release();
        await receiver.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
