import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestPartners } from '../test-support/test-partners';
import { CdrPartitionsStore } from './cdr-partitions.store';

type Row = Record<string, unknown>;

describe('CdrPartitionsStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: CdrPartitionsStore;
  let partnerId: string;
  let customerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = new CdrPartitionsStore(dataSource);
    [partnerId] = await insertTestPartners(dataSource.manager, 'acme');
    [{ id: customerId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id::text AS id`,
      [partnerId],
    );
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const insert = (callId: string, start: string): Promise<unknown> =>
    dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
         quarantined, timestamp)
       VALUES ($1, $2, $3, $4, 10, '+4791234567', '+4722000001', true, false, false, now())`,
      [callId, partnerId, customerId, start],
    );
  const partitionOf = async (callId: string): Promise<string> =>
    (
      (await dataSource.query(`SELECT tableoid::regclass::text AS p FROM cdrs WHERE call_id = $1`, [
        callId,
      ])) as Row[]
    )[0]!.p as string;

  it('creates the months ahead that are missing, and nothing when they exist', async () => {
    const now = new Date('2031-05-31T23:00:00Z');
    const first = await store.ensure(now, 2);
    expect(first.created).toEqual(['cdrs_2031_05', 'cdrs_2031_06', 'cdrs_2031_07']);
    expect(first.defaultRows).toBe(0);
    expect(await store.ensure(now, 2)).toEqual({ created: [], moved: 0, defaultRows: 0 });
    const months = (await store.months()).map((month) => month.name);
    expect(months).toEqual(expect.arrayContaining(['cdrs_2031_05', 'cdrs_2031_06', 'cdrs_2031_07']));
    await insert('in-june', '2031-06-30T23:59:59.999Z');
    expect(await partitionOf('in-june')).toBe('cdrs_2031_06');
  });

  it('moves records the default partition caught into the month made for them, counts unchanged', async () => {
    await insert('early-1', '2033-02-01T00:00:00Z');
    await insert('early-2', '2033-02-28T12:00:00Z');
    await insert('later', '2033-04-10T12:00:00Z');
    expect(await partitionOf('early-1')).toBe('cdrs_default');
    const counts = (): Promise<Row[]> =>
      dataSource.query(`SELECT day::text, count FROM cdr_day_counts WHERE day >= '2033-01-01' ORDER BY day`);
    const before = await counts();
    const callIds = (): Promise<Row[]> =>
      dataSource.query(
        `SELECT call_id, cdr_id::text FROM cdr_call_ids WHERE start >= '2033-01-01' ORDER BY call_id`,
      );
    const idsBefore = await callIds();

    const ensured = await store.ensure(new Date('2033-02-10T00:00:00Z'), 1);
    expect(ensured).toEqual({ created: ['cdrs_2033_02', 'cdrs_2033_03'], moved: 2, defaultRows: 1 });
    expect(await partitionOf('early-1')).toBe('cdrs_2033_02');
    expect(await partitionOf('early-2')).toBe('cdrs_2033_02');
    expect(await partitionOf('later')).toBe('cdrs_default');
    expect(await counts()).toEqual(before);
    expect(await callIds()).toEqual(idsBefore);
  });
});
