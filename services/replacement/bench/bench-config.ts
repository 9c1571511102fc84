import { EnvReader, type Env } from '@trackline/platform';

/** Settings of `pnpm bench`, read once from the environment (docs/benchmarks.md lists them). */
export interface BenchConfig {
  /** REDIS_URL, default redis://127.0.0.1:6379: the Redis both servers use, with a key prefix of this run. */
  redisUrl: string;
  /** BENCH_DURATION_SECONDS, default 10: measured time of each phase on each server. */
  durationSeconds: number;
  /**
   * BENCH_ROUNDS, default 2: each phase's duration is split into this many rounds, alternating which
   * server goes first (A B B A …), so load from other processes on the machine falls on both alike.
   */
  rounds: number;
  /** BENCH_WARMUP_SECONDS, default 3: unmeasured load on each server before the first phase. */
  warmupSeconds: number;
  /** BENCH_CONNECTIONS, default 32: concurrent connections of the saturation phases. */
  connections: number;
  /** BENCH_RATE, default 1000: offered requests/s of the fixed-rate phases. */
  rate: number;
  /** BENCH_RATE_CONNECTIONS, default 10: connections sharing the fixed rate. */
  rateConnections: number;
  /** LOG_LEVEL of the service under test, default info (its production default: one access-log line per request). */
  serviceLogLevel: string;
  /** BENCH_CPU_PROF_DIR: when set, both server processes run with --cpu-prof and write their profiles there. */
  cpuProfileDir: string | undefined;
}

export function loadBenchConfig(env: Env): BenchConfig {
  const read = new EnvReader(env);
  const config: BenchConfig = {
    redisUrl: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:'])!,
    durationSeconds: read.integer('BENCH_DURATION_SECONDS', 10, { min: 1, max: 120 }),
    rounds: read.integer('BENCH_ROUNDS', 2, { min: 1, max: 20 }),
    warmupSeconds: read.integer('BENCH_WARMUP_SECONDS', 3, { min: 0, max: 60 }),
    connections: read.integer('BENCH_CONNECTIONS', 32, { min: 1, max: 1000 }),
    rate: read.integer('BENCH_RATE', 1000, { min: 1, max: 100_000 }),
    rateConnections: read.integer('BENCH_RATE_CONNECTIONS', 10, { min: 1, max: 1000 }),
    serviceLogLevel: read.string('LOG_LEVEL', 'info'),
    cpuProfileDir: read.optionalString('BENCH_CPU_PROF_DIR'),
  };
  read.done();
  return config;
}
