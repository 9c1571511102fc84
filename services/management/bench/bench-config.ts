import { EnvReader, type Env } from '@trackline/platform';

/** The management bench's settings (docs/benchmarks.md), read once. */
export interface ManagementBenchConfig {
  /** A server URL; the bench creates and drops its own database there. */
  serverUrl: string;
  redisUrl: string;
  /** Records of the measured customer (docs/benchmarks.md, Targets: 1,000,000). */
  customerCdrs: number;
  /** Records of each of the other customers, so the index holds more than one customer. */
  otherCustomerCdrs: number;
  otherCustomers: number;
  /** Timed requests per statistics case. */
  pageRuns: number;
  ingestCalls: number;
  ingestBatch: number;
  ingestConcurrency: number;
  /** Calls posted one at a time at `singleCallRate` per second (docs/benchmarks.md, Targets); 0 skips it. */
  singleCalls: number;
  singleCallRate: number;
  /**
   * Seconds of the same calls, untimed, before the measured ones: a process that has just started
   * answers its first seconds of calls slower (connections opened, code compiled, statements
   * prepared on each connection); the switch's calls go on for hours.
   */
  singleCallWarmUpSeconds: number;
  /**
   * BENCH_FEATURES: `on` (the default) gives the partner a webhook taking every event, a GA4
   * integration and missed-call e-mails, delivered to local receivers while the bench runs; `off`
   * measures ingestion without them.
   */
  features: boolean;
  /** Records in the month the retention measurement drops (0 skips it). */
  retentionCdrs: number;
  serviceLogLevel: string;
  /** Records of the monthly-report customer, all in one month (docs/reports.md: 1,000,000); 0 skips it. */
  reportCdrs: number;
  /** Timed requests of the monthly report. */
  reportRuns: number;
  /** Rounds of 50 hostile Authorization headers at once (docs/benchmarks.md, Header flood). */
  floodRounds: number;
}

export function loadManagementBenchConfig(env: Env): ManagementBenchConfig {
  const read = new EnvReader(env);
  const config: ManagementBenchConfig = {
    serverUrl: read.url(
      env.TEST_DATABASE_URL !== undefined ? 'TEST_DATABASE_URL' : 'DATABASE_URL',
      'postgres://postgres@127.0.0.1:5432/postgres',
      ['postgres:', 'postgresql:'],
    )!,
    redisUrl: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:'])!,
    customerCdrs: read.integer('BENCH_CUSTOMER_CDRS', 1_000_000, { min: 1_000, max: 20_000_000 }),
    otherCustomerCdrs: read.integer('BENCH_OTHER_CUSTOMER_CDRS', 50_000, { min: 0, max: 5_000_000 }),
    otherCustomers: read.integer('BENCH_OTHER_CUSTOMERS', 4, { min: 1, max: 50 }),
    pageRuns: read.integer('BENCH_PAGE_RUNS', 20, { min: 1, max: 1_000 }),
    ingestCalls: read.integer('BENCH_INGEST_CALLS', 20_000, { min: 500, max: 1_000_000 }),
    ingestBatch: read.integer('BENCH_INGEST_BATCH', 500, { min: 1, max: 1_000 }),
    ingestConcurrency: read.integer('BENCH_INGEST_CONCURRENCY', 4, { min: 1, max: 64 }),
    singleCalls: read.integer('BENCH_SINGLE_CALLS', 2_000, { min: 0, max: 1_000_000 }),
    singleCallRate: read.integer('BENCH_SINGLE_CALL_RATE', 100, { min: 1, max: 10_000 }),
    singleCallWarmUpSeconds: read.integer('BENCH_SINGLE_WARM_UP_SECONDS', 10, { min: 0, max: 600 }),
    features: read.oneOf('BENCH_FEATURES', ['on', 'off'], 'on') === 'on',
    retentionCdrs: read.integer('BENCH_RETENTION_CDRS', 1_000_000, { min: 0, max: 20_000_000 }),
    serviceLogLevel: read.string('LOG_LEVEL', 'warn'),
    reportCdrs: read.integer('BENCH_REPORT_CDRS', 1_000_000, { min: 0, max: 20_000_000 }),
    reportRuns: read.integer('BENCH_REPORT_RUNS', 20, { min: 1, max: 1_000 }),
    floodRounds: read.integer('BENCH_FLOOD_ROUNDS', 9, { min: 1, max: 100 }),
  };
  read.done();
  return config;
}
