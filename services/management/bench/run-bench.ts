import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { ConfigError } from '@trackline/platform';
import { writeBenchResults } from '@trackline/replacement/dist-test/bench';
import { CdrLifecycleStore } from '../src/cdrs/cdr-lifecycle.store';
import { cdrMonth, CdrPartitionsStore } from '../src/cdrs/cdr-partitions.store';
import { createManagementDataSource as createDataSource } from '../src/composition/management-data-source';
import { runMigrations } from '../src/db/migrate';
import { BULK_FIRST_START, bulkLoadCdrs } from './bench-bulk-load';
import { loadManagementBenchConfig, type ManagementBenchConfig } from './bench-config';
import { BENCH_PASSWORD, BENCH_USERNAME, seedBenchPartner, type BenchFixture } from './bench-fixtures';
import { startCpuMeter } from './bench-cpu';
import { BenchDigestClient, BenchSwitchClient } from './bench-http';
import {
  measureIngestion,
  measureSingleCalls,
  type BenchDni,
  type IngestionResult,
  type SingleCallResult,
} from './bench-ingestion';
import { startFeatureReceivers, type DeliveriesReceived, type FeatureReceivers } from './bench-receivers';
import { BENCH_TELEPHONY_TOKEN, startManagementService, type ServiceUnderTest } from './bench-service';
import { measurePages, type PageCase, type PageResult } from './bench-statistics';
import { measureHeaderFlood, type HeaderFloodResult } from './bench-header-flood';
import { measureReport, REPORT_MONTH, REPORT_MONTH_SPAN, type ReportResult } from './bench-reports';
import { admin, createBenchDatabase, withDatabase } from './bench-database';

const PAGE_TARGET_MS = 100;
const INGEST_TARGET_PER_SECOND = 1_000;
const PAGE_SIZE = 1_000;
const REPORT_TARGET_MS = 200;
const FLOOD_TARGET_MS = 100;
const SINGLE_CALL_P99_TARGET_MS = 20;

/**
 * The management half of `pnpm bench` (docs/benchmarks.md, Management): a database of its own with 1,000,000
 * records for one customer, the statistics page and batch ingestion through the real HTTPS service. Results
 * go to stdout and bench-results/management-<time>.json; the database and Redis keys go at the end.
 */
async function main(): Promise<void> {
  const config = loadManagementBenchConfig(process.env);
  const tag = randomBytes(4).toString('hex');
  const keyPrefix = `tl_bench_${tag}:`;
  const dataDir = await mkdtemp(join(tmpdir(), 'tl-bench-'));
  const redis = new Redis(config.redisUrl, { lazyConnect: true });
  let service: ServiceUnderTest | undefined;
  const receivers = await startFeatureReceivers();
  const database = await createBenchDatabase(config.serverUrl, `tl_bench_${tag}`);
  const { name: databaseName, url: databaseUrl } = database;
  try {
    const machine = await describeMachine(config.serverUrl);
    log(`machine: ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, ${machine.postgres}`);
    log(`database ${databaseName}, Redis key prefix ${keyPrefix}`);
    await runMigrations(databaseUrl);
    const fixture = await prepareData(config, databaseUrl, tag, receivers);

    service = await startManagementService({
      databaseUrl,
      redisUrl: config.redisUrl,
      keyPrefix,
      dataDir,
      logLevel: config.serviceLogLevel,
      env: config.features ? receivers.serviceEnv : {},
    });
    log(`management service pid ${service.pid} on https://127.0.0.1:${service.port}`);

    const pages = await runPages(config, service.port, fixture);
    const report = await runReport(config, service.port, fixture);
    log(`header flood: ${config.floodRounds} rounds`);
    const flood = await measureHeaderFlood(service.port, config.floodRounds);
    const dni: BenchDni = { poolNumbers: fixture.poolNumbers, redis, keyPrefix, advId: 'bench' };
    // One call at a time first: the batches leave the workers a backlog of deliveries to drain.
    const single = await runSingleCalls(config, service, receivers.pid, databaseName, fixture, dni, tag);
    const ingestion = await runIngestion(config, service.port, fixture, dni, tag);
    const delivered = await receivers.received();
    const retention =
      config.retentionCdrs === 0 ? null : await runRetention(config, databaseUrl, fixture, tag);

    const verdicts = [
      ...pages.map((page) => ({
        target: `page ${page.name}: p95 ≤ ${PAGE_TARGET_MS} ms`,
        met: page.p95 <= PAGE_TARGET_MS,
      })),
      ...(report === null
        ? []
        : [
            {
              target: `monthly report of ${report.calls} calls: p95 ≤ ${REPORT_TARGET_MS} ms`,
              met: report.p95 <= REPORT_TARGET_MS,
            },
          ]),
      {
        target: `header flood: slowest /health probe, median round ≤ ${FLOOD_TARGET_MS} ms`,
        met: flood.worstProbeMs.p50 <= FLOOD_TARGET_MS,
      },
      {
        target: `ingestion ≥ ${INGEST_TARGET_PER_SECOND} calls/s`,
        met: ingestion.callsPerSecond >= INGEST_TARGET_PER_SECOND,
      },
      ...(single === null
        ? []
        : [
            {
              target: `single calls at ${single.ratePerSecond}/s: p99 ≤ ${SINGLE_CALL_P99_TARGET_MS} ms`,
              met: single.latencyMs.p99 <= SINGLE_CALL_P99_TARGET_MS,
            },
          ]),
    ];
    printReport(pages, ingestion, verdicts, report, flood, single, delivered);
    if (retention !== null) printRetention(retention);
    const file = await writeBenchResults('management', {
      machine,
      config,
      pages,
      report,
      flood,
      ingestion,
      single,
      delivered,
      retention,
      verdicts,
    });
    log(`results: ${file}`);
    if (verdicts.some((verdict) => !verdict.met)) process.exitCode = 1;
  } finally {
    await service?.stop();
    await receivers.close();
    await deleteKeys(redis, keyPrefix).catch((error: unknown) =>
      log(`Redis clean-up failed: ${String(error)}`),
    );
    redis.disconnect();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function prepareData(
  config: ManagementBenchConfig,
  databaseUrl: string,
  tag: string,
  receivers: FeatureReceivers,
): Promise<BenchFixture> {
  const dataSource = createDataSource(databaseUrl);
  await dataSource.initialize();
  try {
    // One more customer than the statistics need: the last one holds the monthly-report month.
    const fixture = await seedBenchPartner(
      dataSource,
      config.otherCustomers + 2,
      new Date(),
      config.features ? receivers.features : undefined,
    );
    const started = Date.now();
    // The loaded year gets its monthly partitions first, as a live table would have had them.
    const last = new Date(BULK_FIRST_START.getTime() + 365 * 86_400_000);
    const made = await new CdrPartitionsStore(dataSource).ensureMonths(BULK_FIRST_START, last);
    log(`partitions: ${made.created.length} months created for the loaded year`);
    const mainLines = fixture.lines.filter((line) => line.customerId === fixture.mainCustomerId);
    await bulkLoadCdrs(dataSource, fixture.partnerId, mainLines, config.customerCdrs, `${tag}-main`, (done) =>
      log(`bulk load: ${done} records of the measured customer`),
    );
    const reportCustomerId = reportCustomerOf(fixture);
    if (config.reportCdrs > 0) {
      const reportLines = fixture.lines.filter((line) => line.customerId === reportCustomerId);
      await bulkLoadCdrs(
        dataSource,
        fixture.partnerId,
        reportLines,
        config.reportCdrs,
        `${tag}-report`,
        (done) => log(`bulk load: ${done} records of the report customer in ${REPORT_MONTH}`),
        REPORT_MONTH_SPAN,
      );
    }
    const others = [...new Set(fixture.lines.map((line) => line.customerId))].filter(
      (id) => id !== fixture.mainCustomerId && id !== reportCustomerId,
    );
    for (const customerId of others) {
      const lines = fixture.lines.filter((line) => line.customerId === customerId);
      await bulkLoadCdrs(
        dataSource,
        fixture.partnerId,
        lines,
        config.otherCustomerCdrs,
        `${tag}-${customerId}`,
        () => {},
      );
    }
    log(`bulk load: ${others.length} × ${config.otherCustomerCdrs} records of other customers`);
    // What autovacuum leaves behind after a bulk insert: statistics and the visibility map, so every
    // run measures the same steady state instead of racing the autovacuum daemon. Every table: the
    // records' triggers filled cdr_call_ids and the rollups too.
    await dataSource.query('VACUUM (ANALYZE)');
    // The load's dirty pages written now: a checkpoint they set off would otherwise run through the
    // timed phases, and commits would wait behind its writes (stalls of 0.2–0.3 s).
    await dataSource.query('CHECKPOINT');
    log(`bulk load, VACUUM (ANALYZE), CHECKPOINT: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return fixture;
  } finally {
    await dataSource.destroy();
  }
}

interface RetentionResult {
  dropRecords: number;
  dropMs: number;
  deleteRecords: number;
  deleteMs: number;
}

/**
 * The retention job's two ways to remove old records (docs/privacy.md): dropping a month that holds
 * `retentionCdrs` records, and deleting a tenth of that one by one, as for a partner whose retention
 * ends before another's. Both months are loaded after the other measurements, so they do not disturb them.
 */
async function runRetention(
  config: ManagementBenchConfig,
  databaseUrl: string,
  fixture: BenchFixture,
  tag: string,
): Promise<RetentionResult> {
  const dataSource = createDataSource(databaseUrl);
  await dataSource.initialize();
  try {
    const dropMonth = cdrMonth(new Date('2024-01-01T00:00:00Z'));
    const deleteMonth = cdrMonth(new Date('2024-02-01T00:00:00Z'));
    await new CdrPartitionsStore(dataSource).ensureMonths(dropMonth.from, deleteMonth.from);
    const lines = fixture.lines.filter((line) => line.customerId !== fixture.mainCustomerId);
    const monthSeconds = (month: typeof dropMonth) => (month.to.getTime() - month.from.getTime()) / 1000 - 1;
    const deleteRecords = Math.max(1, Math.floor(config.retentionCdrs / 10));
    await bulkLoadCdrs(
      dataSource,
      fixture.partnerId,
      lines,
      config.retentionCdrs,
      `${tag}-drop`,
      (done) => log(`retention: ${done} records loaded into ${dropMonth.name}`),
      { first: dropMonth.from, seconds: monthSeconds(dropMonth) },
    );
    await bulkLoadCdrs(dataSource, fixture.partnerId, lines, deleteRecords, `${tag}-delete`, () => {}, {
      first: deleteMonth.from,
      seconds: monthSeconds(deleteMonth),
    });
    await dataSource.query('VACUUM (ANALYZE) "cdrs"');
    const store = new CdrLifecycleStore(dataSource);
    let started = process.hrtime.bigint();
    const dropped = await store.dropMonth(dropMonth);
    const dropMs = Number(process.hrtime.bigint() - started) / 1e6;
    started = process.hrtime.bigint();
    const deleted = await store.deleteBefore(fixture.partnerId, deleteMonth.to);
    const deleteMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { dropRecords: dropped.records, dropMs, deleteRecords: deleted.records, deleteMs };
  } finally {
    await dataSource.destroy();
  }
}

function printRetention(result: RetentionResult): void {
  log('');
  log(
    `retention: month of ${result.dropRecords} records dropped in ${result.dropMs.toFixed(0)} ms; ` +
      `${result.deleteRecords} records deleted one by one in ${result.deleteMs.toFixed(0)} ms ` +
      `(${((result.deleteRecords / result.deleteMs) * 1000).toFixed(0)} records/s)`,
  );
}

async function runPages(
  config: ManagementBenchConfig,
  port: number,
  fixture: BenchFixture,
): Promise<PageResult[]> {
  const total = config.customerCdrs;
  const lastPage = Math.ceil(total / PAGE_SIZE) - 1;
  const customer = `customer_id=${fixture.mainCustomerId}`;
  // One partner-local day (Europe/Oslo) in the middle of the loaded year; the load is evenly spread.
  const dayStart = Date.parse('2025-07-01T00:00:00+02:00');
  const step = (365 * 86_400_000) / total;
  const firstIndex = Math.ceil((dayStart - BULK_FIRST_START.getTime()) / step);
  const lastIndex = Math.ceil((dayStart + 86_400_000 - BULK_FIRST_START.getTime()) / step);
  const dayTotal = lastIndex - firstIndex;
  const cases: PageCase[] = [
    { name: 'first', query: `${customer}&page=0`, expect: { total, records: PAGE_SIZE } },
    {
      name: 'middle',
      query: `${customer}&page=${Math.floor(lastPage / 2)}`,
      expect: { total, records: PAGE_SIZE },
    },
    {
      name: 'last',
      query: `${customer}&page=${lastPage}`,
      expect: { total, records: total - lastPage * PAGE_SIZE },
    },
    {
      name: 'middle extended',
      query: `${customer}&extended=1&page=${Math.floor(lastPage / 3)}`,
      expect: { total, records: PAGE_SIZE },
    },
    {
      name: 'one day',
      query: `${customer}&from_date=2025-07-01&to_date=2025-07-02&page=1`,
      expect: { total: dayTotal, records: Math.min(PAGE_SIZE, Math.max(0, dayTotal - PAGE_SIZE)) },
    },
  ];
  const client = new BenchDigestClient(port, BENCH_USERNAME, BENCH_PASSWORD);
  try {
    log(`statistics: ${cases.length} cases × ${config.pageRuns} runs`);
    return await measurePages(client, cases, config.pageRuns);
  } finally {
    client.close();
  }
}

/** The last customer the bench partner has: its records all lie in REPORT_MONTH. */
function reportCustomerOf(fixture: BenchFixture): string {
  return fixture.lines[fixture.lines.length - 1]!.customerId;
}

async function runReport(
  config: ManagementBenchConfig,
  port: number,
  fixture: BenchFixture,
): Promise<ReportResult | null> {
  if (config.reportCdrs === 0) return null;
  const client = new BenchDigestClient(port, BENCH_USERNAME, BENCH_PASSWORD);
  try {
    log(`monthly report: ${config.reportRuns} runs`);
    return await measureReport(client, reportCustomerOf(fixture), config.reportCdrs, config.reportRuns);
  } finally {
    client.close();
  }
}

async function runSingleCalls(
  config: ManagementBenchConfig,
  service: ServiceUnderTest,
  receiversPid: number,
  databaseName: string,
  fixture: BenchFixture,
  dni: BenchDni,
  tag: string,
): Promise<SingleCallResult | null> {
  if (config.singleCalls === 0) return null;
  // Enough connections that a slow answer never holds the next call back (a switch posts each call).
  const clients = Array.from(
    { length: 16 },
    () => new BenchSwitchClient(service.port, BENCH_TELEPHONY_TOKEN),
  );
  const admin = new Client({ connectionString: config.serverUrl });
  await admin.connect();
  try {
    log(
      `single calls: ${config.singleCalls} at ${config.singleCallRate}/s, ` +
        `after ${config.singleCallWarmUpSeconds} s of the same untimed`,
    );
    const single = await measureSingleCalls(
      clients,
      fixture.lines,
      dni,
      {
        calls: config.singleCalls,
        ratePerSecond: config.singleCallRate,
        warmUpSeconds: config.singleCallWarmUpSeconds,
        runTag: `${tag}-single`,
        now: new Date(),
      },
      async () => {
        await analyzeQueueTables(withDatabase(config.serverUrl, databaseName));
        return startCpuMeter(admin, databaseName, service.pid, [process.pid, receiversPid]);
      },
    );
    // Printed at once as well: a later part that fails must not take these figures with it.
    log(singleCallsLine(single));
    return single;
  } finally {
    for (const client of clients) client.close();
    await admin.end();
  }
}

/**
 * The statistics of the tables every call writes to, as autovacuum gathers them within a minute or
 * so of a deployment's start (docs/benchmarks.md, Single calls): the bench's database is minutes old,
 * and without them the outbox claims, prepared during the warm-up on tables the planner still
 * thought empty, scan their whole table all through the measured calls.
 */
async function analyzeQueueTables(databaseUrl: string): Promise<void> {
  await admin(databaseUrl, 'ANALYZE webhook_deliveries, notification_outbox, conversion_outbox');
}

async function runIngestion(
  config: ManagementBenchConfig,
  port: number,
  fixture: BenchFixture,
  dni: BenchDni,
  tag: string,
): Promise<IngestionResult> {
  const clients = Array.from(
    { length: config.ingestConcurrency },
    () => new BenchSwitchClient(port, BENCH_TELEPHONY_TOKEN),
  );
  try {
    const settings = { batch: config.ingestBatch, concurrency: config.ingestConcurrency, now: new Date() };
    log('ingestion: warm-up');
    await measureIngestion(clients, fixture.lines, dni, {
      ...settings,
      calls: config.ingestBatch * config.ingestConcurrency,
      runTag: `${tag}-warm`,
    });
    log(
      `ingestion: ${config.ingestCalls} calls, batches of ${config.ingestBatch}, ${config.ingestConcurrency} in flight`,
    );
    return await measureIngestion(clients, fixture.lines, dni, {
      ...settings,
      calls: config.ingestCalls,
      runTag: tag,
    });
  } finally {
    for (const client of clients) client.close();
  }
}

function printReport(
  pages: PageResult[],
  ingestion: IngestionResult,
  verdicts: { target: string; met: boolean }[],
  report: ReportResult | null,
  flood: HeaderFloodResult,
  single: SingleCallResult | null,
  delivered: DeliveriesReceived,
): void {
  const ms = (value: number) => value.toFixed(1).padStart(8);
  log('');
  log('GET /statistics/cdrs (client-observed ms, HTTPS + digest, keep-alive)');
  log(
    `${'case'.padEnd(18)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'max'.padStart(8)}   total  records   bytes`,
  );
  for (const page of pages)
    log(
      `${page.name.padEnd(18)}${ms(page.p50)}${ms(page.p95)}${ms(page.max)}  ${String(page.total).padStart(7)}  ${String(page.records).padStart(7)}  ${String(page.bytes).padStart(7)}`,
    );
  if (report !== null) {
    log('');
    log(
      `GET ${report.path} (${report.calls} calls in the month, ${report.bytes} bytes): ` +
        `p50 ${report.p50.toFixed(1)} ms, p95 ${report.p95.toFixed(1)} ms, max ${report.max.toFixed(1)} ms`,
    );
  }
  log('');
  log(
    `header flood (${flood.requestsPerRound} hostile Authorization headers at once, ${flood.rounds} rounds): ` +
      `slowest /health probe per round p50 ${flood.worstProbeMs.p50.toFixed(1)} ms, max ${flood.worstProbeMs.max.toFixed(1)} ms`,
  );
  log('');
  log(
    `POST /telephony/cdrs: ${ingestion.calls} calls in ${ingestion.seconds.toFixed(2)} s = ${ingestion.callsPerSecond.toFixed(0)} calls/s ` +
      `(batches of ${ingestion.batch}, ${ingestion.concurrency} in flight; batch p50 ${ingestion.batchLatencyMs.p50.toFixed(0)} ms, ` +
      `p95 ${ingestion.batchLatencyMs.p95.toFixed(0)} ms; ${ingestion.withCommission} with commission, ${ingestion.dniCalls} DNI calls)`,
  );
  if (single !== null) log(singleCallsLine(single));
  log(
    `received while the bench ran: ${delivered.webhooks} webhook deliveries, ${delivered.mails} e-mails, ` +
      `${delivered.ga4Hits} GA4 hits`,
  );
  log('');
  for (const verdict of verdicts) log(`${verdict.met ? 'MET   ' : 'MISSED'} ${verdict.target}`);
}

function singleCallsLine(single: SingleCallResult): string {
  return (
    `POST /telephony/cdrs, one call at a time: ${single.calls} at ${single.ratePerSecond}/s, ` +
    `p50 ${single.latencyMs.p50.toFixed(1)} ms, p95 ${single.latencyMs.p95.toFixed(1)} ms, ` +
    `p99 ${single.latencyMs.p99.toFixed(1)} ms, max ${single.latencyMs.max.toFixed(1)} ms; per call ` +
    `${single.cpu.serviceMs.toFixed(2)} ms CPU of the service, ${single.cpu.postgresMs.toFixed(2)} ms of ` +
    `Postgres, ${single.cpu.benchMs.toFixed(2)} ms of the bench's client and receivers, ` +
    `${single.cpu.transactions.toFixed(1)} transactions; the cores ${(single.cpu.machineBusy * 100).toFixed(0)} % busy` +
    (single.warmUp === null
      ? ''
      : `; the ${single.warmUp.calls} warm-up calls before: p50 ${single.warmUp.latencyMs.p50.toFixed(1)} ms, ` +
        `p99 ${single.warmUp.latencyMs.p99.toFixed(1)} ms`)
  );
}

async function describeMachine(serverUrl: string) {
  const rows = await admin(serverUrl, 'SELECT version() AS version');
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    postgres: String(rows[0]?.version).split(' on ')[0],
  };
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`management bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
