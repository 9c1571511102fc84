import { marketingIdsOf } from '@trackline/contracts';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import type { DataSource } from 'typeorm';
import { CdrPartitionsStore } from '../src/cdrs/cdr-partitions.store';
import { TypeormCdrsStore } from '../src/cdrs/cdrs.store';
import { createManagementDataSource as createDataSource } from '../src/composition/management-data-source';
import { runMigrations } from '../src/db/migrate';
import { BULK_FIRST_START, bulkLoadCdrs } from './bench-bulk-load';
import { seedBenchPartner, type BenchFixture } from './bench-fixtures';
import { summarize, type LatencySummary } from './bench-stats';
import { cdrsStoreOn } from '../src/composition/stores-on-manager';
import { createBenchDatabase } from './bench-database';

const RECORDS = Number(process.env.BENCH_CUSTOMER_CDRS ?? 1_000_000);
const RUNS = 20;
const INSERTS = 2_000;
const PAGE = 1_000;

/**
 * The same 1,000,000 records measured side by side in one run, on the partitioned "cdrs" and, after
 * the partitioning migration's `down`, on the unpartitioned table (docs/benchmarks.md): the store's
 * page reads and one-record inserts, without HTTP, so the comparison is the database's alone and the
 * machine's load (shared, busy) weighs on both halves alike.
 */
async function main(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await createBenchDatabase(serverUrl, `tl_bench_part_${randomBytes(4).toString('hex')}`);
  const databaseUrl = database.url;
  const dataSource = createDataSource(databaseUrl);
  try {
    await runMigrations(databaseUrl);
    await dataSource.initialize();
    const fixture = await seedBenchPartner(dataSource, 5, new Date());
    await new CdrPartitionsStore(dataSource).ensureMonths(BULK_FIRST_START, new Date('2026-01-01Z'));
    for (const customerId of new Set(fixture.lines.map((line) => line.customerId))) {
      const main = customerId === fixture.mainCustomerId;
      const lines = fixture.lines.filter((line) => line.customerId === customerId);
      await bulkLoadCdrs(
        dataSource,
        fixture.partnerId,
        lines,
        main ? RECORDS : 50_000,
        `c${customerId}`,
        () => {},
      );
    }
    await dataSource.query('VACUUM (ANALYZE) "cdrs"');
    const partitioned = await measure(dataSource, fixture, 'p');
    log('partitioned', partitioned);
    for (;;) {
      const [last] = await dataSource.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
      await dataSource.undoLastMigration();
      if (String(last.name).startsWith('PartitionCdrsByMonth')) break;
    }
    await dataSource.query('VACUUM (ANALYZE) "cdrs"');
    const unpartitioned = await measure(dataSource, fixture, 'u');
    log('unpartitioned', unpartitioned);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  }
}

interface Measured {
  load: number;
  pages: Record<string, LatencySummary>;
  insertsPerSecond: number;
  insertMs: LatencySummary;
}

async function measure(dataSource: DataSource, fixture: BenchFixture, tag: string): Promise<Measured> {
  const store = cdrsStoreOn(dataSource.manager);
  const query = { partnerId: fixture.partnerId, customerId: fixture.mainCustomerId, limit: PAGE };
  const cases: Record<string, Parameters<TypeormCdrsStore['page']>[0]> = {
    first: { ...query, from: null, to: null, offset: 0 },
    middle: { ...query, from: null, to: null, offset: Math.floor(RECORDS / 2 / PAGE) * PAGE },
    last: { ...query, from: null, to: null, offset: Math.floor((RECORDS - 1) / PAGE) * PAGE },
    'one day': {
      ...query,
      from: new Date('2025-06-30T22:00:00Z'),
      to: new Date('2025-07-01T22:00:00Z'),
      offset: PAGE,
    },
  };
  const pages: Record<string, LatencySummary> = {};
  for (const [name, pageQuery] of Object.entries(cases)) {
    await store.page(pageQuery);
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await timed(() => store.page(pageQuery)));
    pages[name] = summarize(samples);
  }
  // One record a transaction, as ingestion stores them; before the partitioning the store's insert
  // was a plain INSERT … ON CONFLICT ("call_id") DO NOTHING on "cdrs".
  const line = fixture.lines[0]!;
  const samples: number[] = [];
  const started = process.hrtime.bigint();
  for (let i = 0; i < INSERTS; i++) {
    const callId = `cmp-${tag}-${i}`;
    const start = new Date(Date.now() - (i % 3_600) * 1_000);
    samples.push(
      await timed(() =>
        dataSource.transaction((manager) =>
          tag === 'p'
            ? cdrsStoreOn(manager).insert(newCdr(fixture, line, callId, start))
            : manager.query(
                `INSERT INTO "cdrs" ("call_id", "partner_id", "customer_id", "custnr", "source_id", "campaign_id",
                   "start", "duration", "anum", "bnum", "answered", "voicemail", "quarantined", "timestamp")
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 60, '+4791234567', $8, true, false, false, now())
                 ON CONFLICT ("call_id") DO NOTHING RETURNING "id"`,
                [
                  callId,
                  fixture.partnerId,
                  line.customerId,
                  line.custnr,
                  line.sourceId,
                  line.campaignId,
                  start,
                  line.bnum,
                ],
              ),
        ),
      ),
    );
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { load: loadavg()[0]!, pages, insertsPerSecond: INSERTS / seconds, insertMs: summarize(samples) };
}

function newCdr(
  fixture: BenchFixture,
  line: BenchFixture['lines'][number],
  callId: string,
  start: Date,
): Parameters<TypeormCdrsStore['insert']>[0] {
  return {
    callId,
    partnerId: fixture.partnerId,
    customerId: line.customerId,
    custnr: line.custnr,
    sourceId: line.sourceId,
    campaignId: line.campaignId,
    pricingModelId: null,
    start,
    durationSeconds: 60,
    anum: '+4791234567',
    bnum: line.bnum,
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
    timestamp: new Date(),
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function log(label: string, result: Measured): void {
  const ms = (summary: LatencySummary) => `p50 ${summary.p50.toFixed(1)} / p95 ${summary.p95.toFixed(1)} ms`;
  process.stdout.write(`${label} (load average ${result.load.toFixed(1)})\n`);
  for (const [name, summary] of Object.entries(result.pages))
    process.stdout.write(`  page ${name}: ${ms(summary)}\n`);
  process.stdout.write(
    `  insert, one a transaction: ${result.insertsPerSecond.toFixed(0)} /s, ${ms(result.insertMs)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`partition comparison failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
