import { EnvReader, type Env } from '@trackline/platform';

/** Settings of the whole-system bench (docs/benchmarks.md "Whole system"), read once. */
export interface SystemBenchConfig {
  /** A Postgres server URL; the bench creates and drops a database of its own there. */
  serverUrl: string;
  /** BENCH_REDIS_SERVER, default redis-server: the binary of the bench's own Redis. */
  redisServer: string;
  /** Measured seconds of each phase per server, split into `rounds` alternating rounds. */
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  connections: number;
  rate: number;
  rateConnections: number;
  /** LOG_LEVEL of both services, default info (their production default). */
  serviceLogLevel: string;
  /** Seconds to wait before reading Postgres' table counters (a backend reports them at the latest after 10 s idle). */
  statsSettleSeconds: number;
  /** BENCH_CPU_PROF_DIR: both servers run under `--cpu-prof` and write their profiles there. */
  cpuProfileDir: string | undefined;
}

export function loadSystemBenchConfig(env: Env): SystemBenchConfig {
  const read = new EnvReader(env);
  const config: SystemBenchConfig = {
    serverUrl: read.url(
      env.TEST_DATABASE_URL !== undefined ? 'TEST_DATABASE_URL' : 'DATABASE_URL',
      'postgres://postgres@127.0.0.1:5432/postgres',
      ['postgres:', 'postgresql:'],
    )!,
    redisServer: read.string('BENCH_REDIS_SERVER', 'redis-server'),
    durationSeconds: read.integer('BENCH_DURATION_SECONDS', 10, { min: 1, max: 120 }),
    rounds: read.integer('BENCH_ROUNDS', 2, { min: 1, max: 20 }),
    warmupSeconds: read.integer('BENCH_WARMUP_SECONDS', 3, { min: 0, max: 60 }),
    connections: read.integer('BENCH_CONNECTIONS', 32, { min: 1, max: 1000 }),
    rate: read.integer('BENCH_RATE', 1000, { min: 1, max: 100_000 }),
    rateConnections: read.integer('BENCH_RATE_CONNECTIONS', 10, { min: 1, max: 1000 }),
    serviceLogLevel: read.string('LOG_LEVEL', 'info'),
    statsSettleSeconds: read.integer('BENCH_STATS_SETTLE_SECONDS', 11, { min: 0, max: 60 }),
    cpuProfileDir: read.optionalString('BENCH_CPU_PROF_DIR'),
  };
  read.done();
  return config;
}
