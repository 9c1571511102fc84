import { marketingIdsOf } from '@trackline/contracts';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { TypeormCdrsStore } from '../cdrs/cdrs.store';
import { createManagementDataSource } from '../composition/management-data-source';
import { runMigrations } from './migrate';
import { cdrsStoreOn } from '../composition/stores-on-manager';

type Row = Record<string, unknown>;

// The conversion of a populated "cdrs" (docs/operations.md, "Monthly partitions of cdrs"): the rows,
// their ids, the day counts and the call_id idempotency survive up, down and up again.
describe('migration PartitionCdrsByMonth on a table with rows', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let partnerId: string;
  let customerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    await undoThroughPartitioning();
    // Plain SQL, not the stores: the schema is now the one before the partitioning, and the entities
    // describe today's (partners has columns added since).
    [{ id: partnerId }] = await dataSource.query(
      `INSERT INTO partners (name, digest_username, ha1_md5, ha1_sha256, signing_secret)
       VALUES ('acme', 'acme', 'x', 'y', 'sixteen-chars-ok') RETURNING id::text AS id`,
    );
    [{ id: customerId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id::text AS id`,
      [partnerId],
    );
    // Three months a year ago, this month, and one record without a customer; then one deleted, so
    // the identity has given an id no row holds any more.
    const starts = [
      '2025-10-31T23:59:59Z',
      '2025-11-01T00:00:00Z',
      '2025-11-15T12:00:00Z',
      '2025-12-02T08:00:00Z',
      new Date().toISOString(),
    ];
    await dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
         quarantined, commission, recording, timestamp)
       SELECT 'call-' || n, $1, CASE WHEN n = 3 THEN NULL ELSE $2::bigint END, s::timestamptz, 10 + n::int,
              '+4791234567', '+4722000001', true, false, false, CASE WHEN n = 2 THEN 25.50 END,
              CASE WHEN n = 4 THEN '\\x0102'::bytea END, now()
         FROM unnest($3::text[]) WITH ORDINALITY AS u(s, n)`,
      [partnerId, customerId, starts],
    );
    await dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail, quarantined, timestamp)
       VALUES ('gone', $1, now(), 1, '+4791234567', '+4722000001', true, false, false, now())`,
      [partnerId],
    );
    await dataSource.query(`DELETE FROM cdrs WHERE call_id = 'gone'`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const records = (): Promise<Row[]> =>
    dataSource.query(
      `SELECT id::text, call_id, customer_id::text, start, duration, commission::text, recording FROM cdrs ORDER BY id`,
    );
  const dayCounts = (): Promise<Row[]> =>
    dataSource.query(
      `SELECT customer_id::text, day::text, count FROM cdr_day_counts WHERE count > 0 ORDER BY day`,
    );
  const kind = async (): Promise<string> =>
    ((await dataSource.query(`SELECT relkind FROM pg_class WHERE relname = 'cdrs'`)) as Row[])[0]!
      .relkind as string;
  const partitionOf = async (callId: string): Promise<string> =>
    (
      (await dataSource.query(`SELECT tableoid::regclass::text AS p FROM cdrs WHERE call_id = $1`, [
        callId,
      ])) as Row[]
    )[0]!.p as string;

  it('moves every record into its month, keeping ids, counts and idempotency, and back down', async () => {
    const before = await records();
    const countsBefore = await dayCounts();
    expect(before).toHaveLength(5);
    expect(countsBefore).toHaveLength(4);
    expect(await kind()).toBe('r');

    expect(await runMigrations(database.url)).toContain('PartitionCdrsByMonth1795462563963');
    expect(await kind()).toBe('p');
    expect(await records()).toEqual(before);
    expect(await dayCounts()).toEqual(countsBefore);
    expect(await partitionOf('call-1')).toBe('cdrs_2025_10');
    expect(await partitionOf('call-2')).toBe('cdrs_2025_11');
    expect(await partitionOf('call-4')).toBe('cdrs_2025_12');
    const thisMonth = `cdrs_${new Date().toISOString().slice(0, 7).replace('-', '_')}`;
    expect(await partitionOf('call-5')).toBe(thisMonth);
    const partitions = (
      (await dataSource.query(
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'cdrs'::regclass ORDER BY c.relname`,
      )) as Row[]
    ).map((row) => row.relname as string);
    expect(partitions).toContain('cdrs_default');
    const ahead = new Date();
    ahead.setUTCMonth(ahead.getUTCMonth() + 3, 1);
    expect(partitions).toContain(`cdrs_${ahead.toISOString().slice(0, 7).replace('-', '_')}`);
    expect(await dataSource.query(`SELECT call_id, cdr_id::text FROM cdr_call_ids ORDER BY cdr_id`)).toEqual(
      before.map((row) => ({ call_id: row.call_id, cdr_id: row.id })),
    );

    // Ingestion after the conversion: a new id after every id given before, the twin refused.
    const store = cdrsStoreOn(dataSource.manager);
    const fresh = await store.insert(newCdr(partnerId, 'call-new', new Date('2025-11-20T10:00:00Z')));
    expect(BigInt(fresh!.id)).toBeGreaterThan(BigInt(before[4]!.id as string) + 1n);
    expect(await store.insert(newCdr(partnerId, 'call-new', new Date('2025-12-20T10:00:00Z')))).toBeNull();
    expect(await store.insert(newCdr(partnerId, 'call-1', new Date('2025-10-20T10:00:00Z')))).toBeNull();
    expect((await store.findByCallId(partnerId, 'call-1'))?.id).toBe(before[0]!.id);
    // A writer that bypasses the store is held to the same rule by the trigger.
    await expect(
      dataSource.query(
        `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail, quarantined, timestamp)
         VALUES ('call-2', $1, '2026-01-05T00:00:00Z', 1, '+4791234567', '+4722000001', true, false, false, now())`,
        [partnerId],
      ),
    ).rejects.toThrow(/UQ_cdrs_call_id/);
    const afterUp = await records();

    await undoThroughPartitioning();
    expect(await kind()).toBe('r');
    expect(await records()).toEqual(afterUp);
    expect(await dayCounts()).toEqual(await recount());
    await expect(
      dataSource.query(
        `INSERT INTO cdrs (call_id, partner_id, start, duration, anum, bnum, answered, voicemail, quarantined, timestamp)
         VALUES ('call-2', $1, now(), 1, '+4791234567', '+4722000001', true, false, false, now())`,
        [partnerId],
      ),
    ).rejects.toThrow(/UQ_cdrs_call_id/);

    await runMigrations(database.url);
    expect(await kind()).toBe('p');
    expect(await records()).toEqual(afterUp);
    expect(await dayCounts()).toEqual(await recount());
  });

  /** Undoes the migrations from the newest back to and including the partitioning. */
  async function undoThroughPartitioning(): Promise<void> {
    const applied = async (): Promise<boolean> =>
      (
        (await dataSource.query(
          `SELECT 1 FROM migrations WHERE name = 'PartitionCdrsByMonth1795462563963'`,
        )) as Row[]
      ).length > 0;
    while (await applied()) await dataSource.undoLastMigration();
  }

  function recount(): Promise<Row[]> {
    return dataSource.query(
      `SELECT customer_id::text, (start AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS count
         FROM cdrs WHERE customer_id IS NOT NULL GROUP BY 1, 2 ORDER BY 2`,
    );
  }
});

function newCdr(partnerId: string, callId: string, start: Date): Parameters<TypeormCdrsStore['insert']>[0] {
  return {
    callId,
    partnerId,
    customerId: null,
    custnr: null,
    sourceId: null,
    campaignId: null,
    pricingModelId: null,
    start,
    durationSeconds: 30,
    anum: '+4791234567',
    bnum: '+4722000001',
    cnum: null,
    answered: true,
    voicemail: false,
    anumNdcName: null,
    quarantined: false,
    commission: null,
    media: null,
    sourceClass: null,
    expire: null,
    publisherId: null,
    cliId: null,
    orderId: null,
    sessionId: null,
    trackingId: null,
    fullUrl: null,
    fullReferrer: null,
    parameters: null,
    attribution: null,
    boundSeconds: null,
    marketing: marketingIdsOf(null),
    stirVerstat: null,
    spamScore: 0,
    spamReasons: [],
    spam: false,
    spamMarked: null,
    recording: null,
    timestamp: start,
  };
}
