import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestPartners } from '../test-support/test-partners';
import { composeCdrFeature } from '../composition/cdrs-composition';
import type { CdrFeature } from './create-cdrs';

const NOW = new Date('2026-03-02T12:00:00Z');

// The composed feature: a missed call on a notifying source leaves outbox rows beside its CDR.
describe('createCdrFeature', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let testRedis: TestRedis;
  let redis: Redis;
  let feature: CdrFeature;
  const counted: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    feature = composeCdrFeature({
      dataSource,
      redis,
      keyPrefix: testRedis.keyPrefix,
      telephonyToken: 'switch-token-0123456789',
      metrics: {
        cdrIngested: (result, count = 1) => void counted.push(...Array(count).fill(result)),
        cdrBatch: () => undefined,
      },
    });
  });

  afterAll(async () => {
    redis.disconnect();
    await testRedis.cleanup();
    await dataSource.destroy();
    await database.drop();
  });

  it('stores the outbox rows with the record', async () => {
    const [partnerId] = await insertTestPartners(dataSource.manager, 'acme');
    const [{ id: customerId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id`,
      [partnerId],
    );
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, '+4740000001', 'static', now())`,
      [partnerId],
    );
    await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at, notify_on_missed_call, smsnumber)
       VALUES ($1, $2, 'Front', '+4722334455', '+4740000001', now(), true, '+4791000000')`,
      [partnerId, customerId],
    );
    const [outcome] = await feature.ingestion.ingest(
      [
        {
          callId: 'c-1',
          anum: '+4798765432',
          bnum: '+4740000001',
          cnum: null,
          start: new Date('2026-03-02T09:00:00Z'),
          durationSeconds: 0,
          answered: false,
          voicemail: false,
          recording: null,
        },
      ],
      NOW,
    );
    expect(outcome).toMatchObject({ ok: true, created: true });
    // Ingestion is counted for trackline_cdrs_ingested_total (docs/operations.md) whoever calls it.
    expect(counted).toEqual(['stored']);
    const rows: Array<{ count: number }> = await dataSource.query(
      `SELECT count(*)::int AS count FROM notification_outbox o JOIN cdrs c ON c.id::text = o.cdr_id::text
        WHERE c.call_id = 'c-1'`,
    );
    expect(rows).toEqual([{ count: 1 }]);
  });
});
