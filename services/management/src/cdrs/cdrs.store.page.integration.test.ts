import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { insertTestPartners } from '../test-support/test-partners';
import { TypeormCdrsStore } from './cdrs.store';
import { cdrsStoreOn } from '../composition/stores-on-manager';

const DAY_MS = 86_400_000;
const FIRST = Date.parse('2026-03-27T00:00:00Z');

// The page from day counters and a seek must be exactly the page a plain count and OFFSET give.
describe('statistics page from day counts', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormCdrsStore;
  let partnerId: string;
  let customerId: string;
  let otherId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    store = cdrsStoreOn(dataSource.manager);
    [partnerId] = await insertTestPartners(dataSource.manager, 'acme');
    [{ id: customerId }, { id: otherId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1'), ($1, 'Ola', 'K-2')
       RETURNING id::text AS id`,
      [partnerId],
    );
    // 600 records over six days, unevenly (a quiet day, a busy one), some on the same second;
    // another customer's records in between.
    await insert(
      customerId,
      'k',
      600,
      (g) => FIRST + Math.floor((g * g) / 600) * 840_000 + (g % 3) * 3_600_000,
    );
    await insert(otherId, 'o', 200, (g) => FIRST + g * 1_800_000);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function insert(
    customer: string,
    tag: string,
    count: number,
    startMs: (g: number) => number,
  ): Promise<void> {
    const starts = Array.from({ length: count }, (_, g) => new Date(startMs(g)).toISOString());
    await dataSource.query(
      `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
         quarantined, timestamp)
       SELECT $1 || n, $2, $3, s::timestamptz, 10, '+4791234567', '+4722000001', true, false, false, now()
         FROM unnest($4::text[]) WITH ORDINALITY AS u(s, n)`,
      [`${tag}-`, partnerId, customer, starts],
    );
  }

  async function plainPage(from: Date | null, to: Date | null, limit: number, offset: number) {
    const where = `partner_id = $1 AND customer_id = $2 AND ($3::timestamptz IS NULL OR start >= $3)
      AND ($4::timestamptz IS NULL OR start < $4)`;
    const ids: { id: string }[] = await dataSource.query(
      `SELECT id::text AS id FROM cdrs WHERE ${where} ORDER BY start, id LIMIT $5 OFFSET $6`,
      [partnerId, customerId, from, to, limit, offset],
    );
    const [{ total }] = await dataSource.query(`SELECT count(*)::int AS total FROM cdrs WHERE ${where}`, [
      partnerId,
      customerId,
      from,
      to,
    ]);
    return { ids: ids.map((row) => row.id), total: total as number };
  }

  async function expectSamePages(from: Date | null, to: Date | null): Promise<void> {
    for (const [limit, offset] of [
      [50, 0],
      [50, 30],
      [7, 123],
      [100, 250],
      [1000, 0],
      [50, 580],
      [50, 600],
      [10, 5000],
    ]) {
      const page = await store.page({ partnerId, customerId, from, to, limit: limit!, offset: offset! });
      const expected = await plainPage(from, to, limit!, offset!);
      expect({ ids: page.cdrs.map((cdr) => cdr.id), total: page.total }).toEqual(expected);
    }
  }

  it('matches count and OFFSET without dates, on whole UTC days, and on Oslo days across the DST change', async () => {
    await expectSamePages(null, null);
    await expectSamePages(new Date(FIRST + DAY_MS), new Date(FIRST + 3 * DAY_MS));
    // 2026-03-29 is the spring-forward day in Europe/Oslo: 23 hours, UTC+1 → UTC+2.
    await expectSamePages(new Date('2026-03-28T23:00:00Z'), new Date('2026-03-30T22:00:00Z'));
    await expectSamePages(new Date('2026-03-27T05:30:00Z'), new Date('2026-03-27T18:00:00Z'));
    await expectSamePages(new Date('2026-03-28T12:00:00Z'), null);
    await expectSamePages(null, new Date('2026-03-29T13:45:00Z'));
  });

  it('keeps the day counts and report buckets right through inserts, updates and deletes', async () => {
    await dataSource.query(
      `UPDATE cdrs SET start = start + interval '1 day' WHERE customer_id = $1 AND id % 5 = 0`,
      [customerId],
    );
    await dataSource.query(`UPDATE cdrs SET customer_id = $1 WHERE customer_id = $2 AND id % 7 = 0`, [
      otherId,
      customerId,
    ]);
    await dataSource.query(`DELETE FROM cdrs WHERE customer_id = $1 AND id % 11 = 0`, [customerId]);
    const drift = await dataSource.query(
      `SELECT coalesce(c.day, d.day) AS day FROM cdr_day_counts c
         FULL JOIN (SELECT partner_id, customer_id, (start AT TIME ZONE 'UTC')::date AS day, count(*)::int AS count
                      FROM cdrs WHERE customer_id IS NOT NULL GROUP BY 1, 2, 3) d
           ON (d.partner_id, d.customer_id, d.day) = (c.partner_id, c.customer_id, c.day)
        WHERE coalesce(c.count, 0) <> coalesce(d.count, 0)`,
    );
    expect(drift).toEqual([]);
    // The monthly report's quarter-hour rollup, kept by the same inserts, updates and deletes.
    const bucketDrift = await dataSource.query(
      `SELECT coalesce(b.bucket, d.bucket) AS bucket FROM cdr_report_buckets b
         FULL JOIN (SELECT partner_id, customer_id, COALESCE(source_id, 0) AS source_id,
                           date_bin('15 minutes', start, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                           count(*)::int AS calls, count(*) FILTER (WHERE answered)::int AS answered
                      FROM cdrs WHERE customer_id IS NOT NULL GROUP BY 1, 2, 3, 4) d
           ON (d.partner_id, d.customer_id, d.source_id, d.bucket) = (b.partner_id, b.customer_id, b.source_id, b.bucket)
        WHERE coalesce(b.calls, 0) <> coalesce(d.calls, 0) OR coalesce(b.answered, 0) <> coalesce(d.answered, 0)`,
    );
    expect(bucketDrift).toEqual([]);
    await expectSamePages(null, null);
    await expectSamePages(new Date('2026-03-28T23:00:00Z'), new Date('2026-03-30T22:00:00Z'));
  });
});
