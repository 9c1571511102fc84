import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { TypeormOutboxStore } from './outbox.store';

describe('TypeormOutboxStore claims', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormOutboxStore;

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

  it('hands over readable rows, and marks a row whose payload cannot be read dead at once, saying why', async () => {
    const now = new Date();
    const rows = (await dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, payload, next_attempt_at)
       VALUES ('sms', 'missed_call', '+4790000001', $1, $3), ('sms', 'missed_call', '+4790000002', $2, $3)
       RETURNING id::text AS id`,
      [JSON.stringify({ text: 'Missed call' }), JSON.stringify({ subject: 'no text' }), now],
    )) as Array<{ id: string }>;
    const [readable, unreadable] = rows.map((row) => row.id);

    const claimed = await store.claim('w1', now, new Date(now.getTime() + 60_000), 10);

    expect(claimed).toEqual([
      expect.objectContaining({ id: readable, recipient: '+4790000001', payload: { text: 'Missed call' } }),
    ]);
    expect(
      await dataSource.query(`SELECT status, last_error, locked_by FROM notification_outbox WHERE id = $1`, [
        unreadable,
      ]),
    ).toEqual([
      {
        status: 'dead',
        last_error: 'stored notification unreadable: payload.text: must be a string',
        locked_by: null,
      },
    ]);
  });

  it('queues notifications in the order given, each due at once under a key of its own', async () => {
    await store.enqueue(dataSource.manager, [
      {
        channel: 'email',
        kind: 'new_voicemail',
        recipient: 'kari@example.com',
        subject: 'New voicemail',
        text: 'A voicemail from +4791234xxx',
        cdrId: '41',
        attachment: { filename: 'voicemail.wav', contentType: 'audio/wav', sourceCdrId: '41' },
      },
      { channel: 'sms', kind: 'missed_call', recipient: '+4790000003', text: 'Missed call', cdrId: '42' },
    ]);

    // Due from the database's now; asked a moment later.
    const now = new Date(Date.now() + 1_000);
    const claimed = await store.claim('w2', now, new Date(now.getTime() + 60_000), 10);

    expect(claimed).toEqual([
      expect.objectContaining({
        channel: 'email',
        kind: 'new_voicemail',
        recipient: 'kari@example.com',
        cdrId: '41',
        payload: {
          text: 'A voicemail from +4791234xxx',
          subject: 'New voicemail',
          attachment: { filename: 'voicemail.wav', contentType: 'audio/wav' },
        },
        attachmentCdrId: '41',
        attempts: 1,
      }),
      expect.objectContaining({
        channel: 'sms',
        recipient: '+4790000003',
        cdrId: '42',
        payload: { text: 'Missed call' },
        attachmentCdrId: null,
      }),
    ]);
    expect(Number(claimed[1]!.id)).toBeGreaterThan(Number(claimed[0]!.id));
    expect(claimed[0]!.deliveryKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(claimed[0]!.deliveryKey).not.toBe(claimed[1]!.deliveryKey);
  });
});
