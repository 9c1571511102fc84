import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { CdrPartitionsStore } from '../cdrs/cdr-partitions.store';
import { createManagementDataSource } from '../composition/management-data-source';
import { ManagementMetrics } from '../metrics/management-metrics';
import { TypeormPartnersStore } from '../partners/partners.store';
import { insertTestPartners } from '../test-support/test-partners';
import { createDataLifecycle } from '../composition/data-lifecycle-composition';

type Row = Record<string, unknown>;

const NOW = new Date('2030-06-15T03:00:00Z');

// Rows before and after one run of the daily job on real Postgres (docs/privacy.md).
describe('daily data lifecycle', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let oslo: string;
  let bergen: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    [oslo, bergen] = await insertTestPartners(dataSource.manager, 'oslo', 'bergen');
    const partners = new TypeormPartnersStore(dataSource.manager);
    // oslo keeps 12 months and masks after 30 days; bergen keeps 24 months, never masks.
    await partners.update(oslo, { cdrRetentionMonths: 12, anumMaskAfterDays: 30 });
    await new CdrPartitionsStore(dataSource).ensureMonths(new Date('2027-01-01Z'), new Date('2030-09-01Z'));
    const [{ id: customer }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id::text AS id`,
      [oslo],
    );
    const records: Array<[string, string, string, boolean]> = [
      // [call id, partner, start, with recording]
      ['oslo-2028-01', oslo, '2028-01-10T10:00:00Z', true],
      ['bergen-2028-01', bergen, '2028-01-20T10:00:00Z', true],
      ['bergen-2028-06-14', bergen, '2028-06-14T10:00:00Z', false], // 24 months + 1 day old
      ['bergen-2028-06-16', bergen, '2028-06-16T10:00:00Z', false], // kept: inside 24 months
      ['oslo-2029-06-14', oslo, '2029-06-14T10:00:00Z', true], // 12 months + 1 day old
      ['oslo-2029-06-16', oslo, '2029-06-16T10:00:00Z', false], // kept, masked (older than 30 days)
      ['oslo-2030-05-16', oslo, '2030-05-16T02:00:00Z', false], // kept, masked (30 days + 1 hour)
      ['oslo-2030-05-17', oslo, '2030-05-17T10:00:00Z', false], // kept whole (29 days)
      ['bergen-2030-01', bergen, '2030-01-05T10:00:00Z', false], // kept whole (bergen never masks)
      ['oslo-default', oslo, '2020-03-01T10:00:00Z', false], // in cdrs_default, past retention
    ];
    for (const [callId, partnerId, start, recording] of records) {
      const [{ id }] = await dataSource.query(
        `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
           quarantined, recording, timestamp)
         VALUES ($1, $2, $3, $4, 10, '+4791234567', '+4722000001', true, false, false, $5, now())
         RETURNING id::text AS id`,
        [
          callId,
          partnerId,
          partnerId === oslo ? customer : null,
          start,
          recording ? Buffer.from('RIFF') : null,
        ],
      );
      ids.set(callId, id as string);
    }
    // Notifications of a record that will go and of one that stays.
    await dataSource.query(
      `INSERT INTO notification_outbox (channel, kind, recipient, cdr_id, payload, status)
       VALUES ('sms', 'missed_call', '+4790000000', $1, '{"text":"Missed call from +4791234567"}', 'sent'),
              ('sms', 'missed_call', '+4790000000', $2, '{"text":"Missed call from +4791234567"}', 'sent')`,
      [ids.get('oslo-2029-06-14'), ids.get('oslo-2029-06-16')],
    );
    // A transcript and its job of a record that will go and of one that stays, masked: masking
    // leaves the transcript as it is (docs/privacy.md).
    for (const callId of ['bergen-2028-06-14', 'oslo-2029-06-16']) {
      await dataSource.query(
        `INSERT INTO transcripts (cdr_id, partner_id, cdr_start, status, text)
         SELECT id, partner_id, start, 'done', 'Is the car still available?' FROM cdrs WHERE id = $1`,
        [ids.get(callId)],
      );
      await dataSource.query(
        `INSERT INTO transcription_jobs (partner_id, cdr_id, cdr_start, recording, status)
         SELECT partner_id, id, start, 'voicemail', 'sent' FROM cdrs WHERE id = $1`,
        [ids.get(callId)],
      );
    }
    // A GA4 conversion of each of the same two records (docs/conversions.md).
    const [{ id: integration }] = await dataSource.query(
      `INSERT INTO partner_integrations (partner_id, kind, settings, secrets)
       VALUES ($1, 'ga4', '{}', '{}') RETURNING id::text AS id`,
      [oslo],
    );
    await dataSource.query(
      `INSERT INTO conversion_outbox (partner_id, cdr_id, integration_id, destination, order_id, occurred_at)
       VALUES ($1, $2, $4, 'ga4', 'call-a', now()), ($1, $3, $4, 'ga4', 'call-b', now())`,
      [oslo, ids.get('oslo-2029-06-14'), ids.get('oslo-2029-06-16'), integration],
    );
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const stored = async (): Promise<Record<string, string>> => {
    const rows: Row[] = await dataSource.query(`SELECT call_id, anum FROM cdrs ORDER BY call_id`);
    return Object.fromEntries(rows.map((row) => [row.call_id as string, row.anum as string]));
  };

  it('drops months every partner is done with, deletes and masks per partner, on one replica', async () => {
    const metrics = new ManagementMetrics({
      partners: { list: async () => [] },
      pools: { usage: async () => ({ size: 0, bound: 0 }) as never },
      outbox: { counts: async () => ({}) as never } as never,
      transcriptionQueue: { state: async () => ({ pending: 0, dead: 0, oldestPendingSeconds: null }) },
      backlogs: {} as never,
      clock: () => NOW,
      logger: pino({ level: 'silent' }),
    });
    const options = {
      monthsAhead: 3,
      cdrChangeRetentionDays: 30,
      hourUtc: 3,
      logger: pino({ level: 'silent' }),
      observer: metrics,
    };
    // Two replicas ask at the same moment: one runs the job.
    const [first, second] = [
      createDataLifecycle(dataSource, options),
      createDataLifecycle(dataSource, options),
    ];
    const reports = await Promise.all([first.job.tick(NOW), second.job.tick(NOW)]);
    const report = reports.find((candidate) => candidate !== null)!;
    expect(reports.filter((candidate) => candidate === null)).toHaveLength(1);

    // Every month up to June 2028 is past both partners' retention: dropped whole.
    // (The template database also has the months from its own creation on.)
    expect(report.monthsDropped).toEqual(
      expect.arrayContaining([
        ...Array.from({ length: 12 }, (_, i) => `cdrs_2027_${String(i + 1).padStart(2, '0')}`),
        ...Array.from({ length: 5 }, (_, i) => `cdrs_2028_${String(i + 1).padStart(2, '0')}`),
      ]),
    );
    expect(report.monthsDropped.filter((name) => name >= 'cdrs_2028_06')).toEqual([]);
    expect(report).toMatchObject({
      partitionsCreated: [],
      recordsDropped: 2,
      recordsDeleted: 3, // bergen 2028-06-14, oslo 2029-06-14, oslo-default
      recordingsDeleted: 3,
      recordsMasked: 2,
      notificationsDeleted: 1,
      conversionsDeleted: 1,
      transcriptsDeleted: 1,
      recordsInDefault: 0,
    });
    expect(await dataSource.query(`SELECT cdr_id::text AS cdr_id, text FROM transcripts`)).toEqual([
      { cdr_id: ids.get('oslo-2029-06-16'), text: 'Is the car still available?' },
    ]);
    expect(await dataSource.query(`SELECT cdr_id::text AS cdr_id FROM transcription_jobs`)).toEqual([
      { cdr_id: ids.get('oslo-2029-06-16') },
    ]);
    expect(await dataSource.query(`SELECT order_id FROM conversion_outbox ORDER BY order_id`)).toEqual([
      { order_id: 'call-b' },
    ]);
    expect(await stored()).toEqual({
      'bergen-2028-06-16': '+4791234567',
      'bergen-2030-01': '+4791234567',
      'oslo-2029-06-16': '+479xxxxxxx',
      'oslo-2030-05-16': '+479xxxxxxx',
      'oslo-2030-05-17': '+4791234567',
    });
    // The counters and call ids of what went are gone with it; those of what stays are intact.
    expect(
      await dataSource.query(`SELECT day::text, count FROM cdr_day_counts WHERE count > 0 ORDER BY day`),
    ).toEqual([
      { day: '2029-06-16', count: 1 },
      { day: '2030-05-16', count: 1 },
      { day: '2030-05-17', count: 1 },
    ]);
    expect(
      ((await dataSource.query(`SELECT call_id FROM cdr_call_ids ORDER BY call_id`)) as Row[]).map(
        (row) => row.call_id,
      ),
    ).toEqual(Object.keys(await stored()));
    expect(
      await dataSource.query(`SELECT cdr_id::text, payload FROM notification_outbox ORDER BY id`),
    ).toEqual([{ cdr_id: ids.get('oslo-2029-06-16'), payload: { text: 'Missed call from +4791234567' } }]);
    expect(await dataSource.query(`SELECT to_regclass('cdrs_2028_05') AS t`)).toEqual([{ t: null }]);
    const [run] = await dataSource.query(`SELECT next_run_at, last_result FROM data_lifecycle_runs`);
    expect(run.next_run_at).toEqual(new Date('2030-06-16T03:00:00Z'));
    expect(run.last_result).toMatchObject({ recordsDropped: 2, recordsMasked: 2 });

    const scrape = await metrics.registry.metrics();
    expect(scrape).toContain('trackline_data_lifecycle_records_total{action="dropped"} 2');
    expect(scrape).toContain('trackline_data_lifecycle_records_total{action="deleted"} 3');
    expect(scrape).toContain('trackline_data_lifecycle_records_total{action="masked"} 2');
    expect(scrape).toContain('trackline_data_lifecycle_runs_total{result="ok"} 1');

    // Not due again the same day; the next day's run finds nothing more to do.
    expect(await first.job.tick(new Date('2030-06-15T23:00:00Z'))).toBeNull();
    const next = await second.job.tick(new Date('2030-06-16T03:00:01Z'));
    expect(next).toMatchObject({ monthsDropped: [], recordsDropped: 0, recordsDeleted: 0, recordsMasked: 0 });
  });
});
