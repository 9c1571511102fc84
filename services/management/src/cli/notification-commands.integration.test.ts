import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { NotificationWorker } from '../notifications/notification-worker';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { SmsChannel } from '../notifications/sms.channel';
import { startSmsGateway } from '../test-support/notification-receivers';
import { insertTestPartners } from '../test-support/test-partners';
import { runCli } from './run-cli';

interface Row {
  id: string;
  delivery_key: string;
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

describe('trackline notifications:requeue-dead', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    // No REDIS_URL: the command touches only Postgres.
    const code = await runCli(
      argv,
      { DATABASE_URL: database.url },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out, err };
  }

  async function rows(): Promise<Row[]> {
    return dataSource.query(
      `SELECT id::text, delivery_key, recipient, status, attempts, last_error
       FROM notification_outbox ORDER BY id`,
    );
  }

  async function partner(name: string): Promise<string> {
    const [id] = await insertTestPartners(dataSource.manager, name);
    return id;
  }

  async function cdr(partnerId: string, callId: string): Promise<string> {
    const [row] = await dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail,
                         quarantined, timestamp)
       VALUES ($1, $2, now(), 0, '+4790000001', '+4791000001', false, false, false, now())
       RETURNING id::text`,
      [callId, partnerId],
    );
    return (row as { id: string }).id;
  }

  /** An SMS outbox row in the given state, written at `created`; the recipient names it. */
  async function outboxRow(cdrId: string, recipient: string, status: string, created: string): Promise<void> {
    await dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, cdr_id, payload, status, attempts,
                                        last_error, created)
       VALUES ('sms', 'missed_call', $1, $2, '{"text":"Missed call"}', $3, $4, $5, $6)`,
      [
        recipient,
        cdrId,
        status,
        status === 'pending' ? 0 : 8,
        status === 'dead' ? 'SMS gateway answered 503' : null,
        created,
      ],
    );
  }

  it('requeues dead notifications by partner and age, prints how many, and the worker then sends them', async () => {
    const acme = await cdr(await partner('acme'), 'call-acme');
    const globex = await cdr(await partner('globex'), 'call-globex');
    await outboxRow(acme, 'acme-old-dead', 'dead', '2026-02-01T10:00:00Z');
    await outboxRow(acme, 'acme-new-dead', 'dead', '2026-02-10T10:00:00Z');
    await outboxRow(acme, 'acme-sent', 'sent', '2026-02-10T10:00:00Z');
    await outboxRow(globex, 'globex-new-dead', 'dead', '2026-02-10T10:00:00Z');
    await outboxRow(globex, 'globex-pending', 'pending', '2026-02-10T10:00:00Z');
    const before = await rows();

    expect(await cli('notifications:requeue-dead', '--partner', 'acme', '--since', '2026-02-05')).toEqual({
      code: 0,
      out: ['Requeued 1 dead notification'],
      err: [],
    });
    const byRecipient = new Map((await rows()).map((row) => [row.recipient, row]));
    expect(byRecipient.get('acme-new-dead')).toMatchObject({
      status: 'pending',
      attempts: 0,
      // Kept until the next attempt: the only record of why it died.
      last_error: 'SMS gateway answered 503',
    });
    for (const untouched of ['acme-old-dead', 'acme-sent', 'globex-new-dead', 'globex-pending']) {
      expect(byRecipient.get(untouched)).toEqual(before.find((row) => row.recipient === untouched));
    }

    expect(await cli('notifications:requeue-dead', '--since', '2026-02-10T11:00:00+01:00')).toEqual({
      code: 0,
      out: ['Requeued 1 dead notification'],
      err: [],
    });
    expect(await cli('notifications:requeue-dead')).toEqual({
      code: 0,
      out: ['Requeued 1 dead notification'],
      err: [],
    });
    expect(await cli('notifications:requeue-dead')).toEqual({
      code: 0,
      out: ['No dead notifications to requeue'],
      err: [],
    });

    // The worker takes them like any due row, under the delivery key they always had.
    const gateway = await startSmsGateway();
    try {
      const worker = new NotificationWorker(
        {
          store: new TypeormOutboxStore(dataSource.manager),
          channels: { email: null, sms: new SmsChannel(gateway.url) },
          recordings: { read: async () => null },
          logger: pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, done) => done() })),
          clock: () => new Date(),
        },
        {
          workerId: 'requeue-test',
          maxAttempts: 3,
          baseDelayMs: 100,
          leaseMs: 2_000,
          pollMs: 10,
          batchSize: 10,
        },
      );
      expect(await worker.runOnce()).toBe(4);
      const after = await rows();
      expect(after.map((row) => [row.recipient, row.status])).toEqual([
        ['acme-old-dead', 'sent'],
        ['acme-new-dead', 'sent'],
        ['acme-sent', 'sent'],
        ['globex-new-dead', 'sent'],
        ['globex-pending', 'sent'],
      ]);
      const keyOf = (recipient: string) => before.find((row) => row.recipient === recipient)!.delivery_key;
      expect(gateway.requests.map((request) => request.body.idempotency_key).sort()).toEqual(
        ['acme-old-dead', 'acme-new-dead', 'globex-new-dead', 'globex-pending'].map(keyOf).sort(),
      );
    } finally {
      await gateway.close();
    }
  });

  it('refuses an unknown partner and an unreadable date with one line, changing nothing', async () => {
    await dataSource.query('TRUNCATE notification_outbox');
    const acme = await cdr(await partner('initech'), 'call-initech');
    await outboxRow(acme, 'initech-dead', 'dead', '2026-02-10T10:00:00Z');

    expect(await cli('notifications:requeue-dead', '--partner', 'nobody')).toEqual({
      code: 1,
      out: [],
      err: ['error: partner nobody not found'],
    });
    expect(await cli('notifications:requeue-dead', '--since', '10 Feb')).toEqual({
      code: 1,
      out: [],
      err: [
        'error: --since: must be a date YYYY-MM-DD (midnight UTC), "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset',
      ],
    });
    expect((await rows()).map((row) => row.status)).toEqual(['dead']);
  });
});
