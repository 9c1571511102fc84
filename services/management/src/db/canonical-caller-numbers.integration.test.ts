import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { insertTestPartners } from '../test-support/test-partners';
import { TypeormPartnersStore } from '../partners/partners.store';
import { createManagementDataSource } from '../composition/management-data-source';
import { CanonicalCallerNumbers1795480000010 } from './migrations/1795480000010-CanonicalCallerNumbers';

type Row = Record<string, unknown>;

// Callers stored as the switch sent them before every edge read numbers one way become the one
// stored form, read in their partner's country (docs/switch.md, "Numbers"), notifications included.
describe('migration CanonicalCallerNumbers', () => {
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

  it("rewrites old spellings of callers in the partner's country, and the texts naming them", async () => {
    const [acme, sverige] = (await insertTestPartners(dataSource.manager, 'acme', 'sverige')) as [
      string,
      string,
    ];
    await new TypeormPartnersStore(dataSource.manager).update(sverige, { country: 'SE' });
    const rows: Array<[string, string, string, string | null]> = [
      [acme, 'national', '91234567', '22334455'],
      [acme, 'prefixed', '004791234567', null],
      [acme, 'bare', '4791234567', '+4722334455'],
      [acme, 'word', 'Restricted', 'unknown'],
      [acme, 'e164', '+4798765432', null],
      [acme, 'masked', '+479xxxxxxx', null],
      [acme, 'short', '1881', null],
      [sverige, 'swedish', '0812345678', null],
    ];
    for (const [partnerId, callId, anum, cnum] of rows)
      await dataSource.query(
        `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, cnum, answered, voicemail,
           quarantined, timestamp)
         VALUES ($1, $2, now() - interval '1 day', 30, $3, '+4791100001', $4, false, false, false, now())`,
        [callId, partnerId, anum, cnum],
      );
    const [{ id: nationalId }] = await dataSource.query(
      `SELECT id::text AS id FROM cdrs WHERE call_id = 'national'`,
    );
    await dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, cdr_id, payload)
       VALUES ('email', 'missed_call', 'kari@example.com', $1,
               '{"subject":"Missed call from 91234567","text":"Missed call from 91234567 to +4791234567 (Shop)."}')`,
      [nationalId],
    );

    const runner = dataSource.createQueryRunner();
    try {
      await new CanonicalCallerNumbers1795480000010().up(runner);
      // Safe to run again: nothing left to convert.
      await new CanonicalCallerNumbers1795480000010().up(runner);
    } finally {
      await runner.release();
    }

    expect(await dataSource.query(`SELECT call_id, anum, cnum FROM cdrs ORDER BY call_id`)).toEqual([
      { call_id: 'bare', anum: '+4791234567', cnum: '+4722334455' },
      { call_id: 'e164', anum: '+4798765432', cnum: null },
      { call_id: 'masked', anum: '+479xxxxxxx', cnum: null },
      { call_id: 'national', anum: '+4791234567', cnum: '+4722334455' },
      { call_id: 'prefixed', anum: '+4791234567', cnum: null },
      { call_id: 'short', anum: '1881', cnum: null },
      { call_id: 'swedish', anum: '+46812345678', cnum: null },
      { call_id: 'word', anum: 'anonymous', cnum: 'anonymous' },
    ]);
    const [{ payload }] = (await dataSource.query(`SELECT payload FROM notification_outbox`)) as Row[];
    // The called number, which holds the caller's national digits, is not the caller.
    expect(payload).toEqual({
      subject: 'Missed call from +4791234567',
      text: 'Missed call from +4791234567 to +4791234567 (Shop).',
    });
  });
});
