import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, hostname, loadavg, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePartnerConfig, partnerKeys, type PartnerConfig } from '@trackline/contracts';
import { ConfigError, createLogger, createRedisClient, type RedisConnection } from '@trackline/platform';
import {
  createBenchPartner,
  createSessions,
  EXISTING_SESSIONS,
  minimalAllocator,
  NEW_SESSION_POOL,
  phaseTable,
  runLoad,
  signedRequests,
  startBareServer,
  startService,
  summarizeLoads,
  table,
  type Mode,
  type PhaseResult,
  type RawLoad,
  type ServerUnderTest,
  type SignedRequest,
  type Workload,
  waitUntilServing,
  writeBenchResults,
} from '@trackline/replacement/dist-test/bench';
import { Client } from 'pg';
import { createManagementServices } from '../src/composition/management-services';
import { createManagementStores } from '../src/composition/management-stores';
import { createManagementDataSource as createDataSource } from '../src/composition/management-data-source';
import { runMigrations } from '../src/db/migrate';
import { processCpuUsec } from './bench-cpu';
import { startManagementService, type ServiceUnderTest } from './bench-service';
import { startPrivateRedis, type PrivateRedis } from '../src/test-support/private-redis';
import { loadSystemBenchConfig, type SystemBenchConfig } from './system-bench-config';
import {
  checkSystemTargets,
  commandDelta,
  parseCommandStats,
  perCall,
  perThousand,
  resendPeriodsBegun,
  type DownstreamCost,
  type ScriptCost,
  type TargetCheck,
} from './system-bench-report';
import { createBenchDatabase } from './bench-database';

type Server = 'minimal' | 'service';
const READY_TIMEOUT_MS = 30_000;
const FIRST_POOL_NUMBER = 4790000000;

/**
 * The whole-system phase of `pnpm bench` (docs/benchmarks.md "Whole system"): the
 * system as deployed — management (dist/main.js, consuming the customer-seen streams) on a database
 * of its own, the replacement service (dist/main.js) — and the minimal bare server, on a Redis of the
 * bench's own, side by side in alternating rounds. Reports throughput ratios, client and processing
 * p99 at a fixed rate, Redis µs per script call (INFO commandstats, per round) and Postgres row writes
 * and stream entries per 1,000 requests. Everything it made is removed at the end.
 */
async function main(): Promise<void> {
  const config = loadSystemBenchConfig(process.env);
  const tag = randomBytes(4).toString('hex');
  const keyPrefix = `bench-${tag}:`;
  const dataDir = await mkdtemp(join(tmpdir(), 'tl-bench-system-'));
  // A hard bound on the whole run, whatever hangs: phases, settles, start-up and shutdown.
  const boundSeconds =
    4 * config.durationSeconds * 2 + 2 * config.warmupSeconds + 4 * config.statsSettleSeconds + 300;
  const watchdog = setTimeout(() => {
    process.stderr.write(`[bench:system] not finished within ${boundSeconds} s; stopping\n`);
    process.exit(2);
  }, boundSeconds * 1000);
  watchdog.unref();

  let redisServer: PrivateRedis | undefined;
  let redis: RedisConnection | undefined;
  let management: ServiceUnderTest | undefined;
  const servers: ServerUnderTest[] = [];
  const database = await createBenchDatabase(config.serverUrl, `tl_bench_system_${tag}`);
  const { name: databaseName, url: databaseUrl } = database;
  try {
    redisServer = await startPrivateRedis(config.redisServer);
    redis = createRedisClient({
      url: redisServer.url,
      clusterNodes: [],
      connectTimeoutMs: 2000,
      commandTimeoutMs: 10_000,
      maxReconnectDelayMs: 1000,
      queueWhileDisconnected: true,
      name: 'bench-system',
      logger: createLogger({ service: 'bench-system', level: 'warn' }),
    });
    const machine = await describeMachine(redis, config.serverUrl);
    log(
      `machine: ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, redis ${machine.redis}, ${machine.postgres}`,
    );
    log(`load average at start: ${machine.loadAverage}`);
    log(
      `database ${databaseName}, own Redis ${redisServer.url} (pid ${redisServer.pid}), key prefix ${keyPrefix}`,
    );

    await runMigrations(databaseUrl);
    const secrets = await seedServicePartners(databaseUrl);
    management = await startManagementService({
      databaseUrl,
      redisUrl: redisServer.url,
      keyPrefix,
      dataDir,
      logLevel: config.serviceLogLevel,
    });
    log(`management pid ${management.pid} (customer-seen consumer running)`);
    const requests = await prepareWorkloads(redis, keyPrefix, secrets);

    const settings = {
      redisUrl: redisServer.url,
      keyPrefix,
      serviceLogLevel: config.serviceLogLevel,
      cpuProfileDir: config.cpuProfileDir,
    };
    servers.push(await startBareServer(settings, 'minimal'), await startService(settings));
    log(`minimal bare server pid ${servers[0]!.pid}, replacement service pid ${servers[1]!.pid}`);
    for (const server of servers)
      await waitUntilServing(server, requests[server.name as Server].new, READY_TIMEOUT_MS);
    for (const server of servers) {
      if (config.warmupSeconds === 0) break;
      log(`warm-up: ${server.name}, ${config.warmupSeconds} s`);
      await runLoad({
        baseUrl: server.baseUrl,
        requests: requests[server.name as Server].existing,
        connections: config.connections,
        durationSeconds: config.warmupSeconds,
      });
    }

    const phases: PhaseResult[] = [];
    const scripts: ScriptCost[] = [];
    const downstream: DownstreamCost[] = [];
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    try {
      for (const workload of ['new', 'existing'] as const) {
        await settle(config);
        const countersBefore = await postgresCounters(pg);
        const eventsBefore = await streamLength(redis, keyPrefix, workload);
        const startedAt = Date.now();
        const usage = new Map<Server, Usage>([
          ['minimal', { calls: 0, usec: 0, cpuUsec: 0, serverCpuUsec: 0, managementCpuUsec: 0 }],
          ['service', { calls: 0, usec: 0, cpuUsec: 0, serverCpuUsec: 0, managementCpuUsec: 0 }],
        ]);
        for (const mode of ['saturation', 'rate'] as const) {
          phases.push(
            ...(await runPhase(
              config,
              redis,
              { redis: redisServer.pid, management: management.pid },
              servers,
              workload,
              mode,
              requests,
              usage,
            )),
          );
        }
        for (const [server, cost] of usage) scripts.push({ server, workload, ...cost });
        const endedAt = Date.now();
        await settle(config);
        const served = phases
          .filter((p) => p.server === 'service' && p.workload === workload)
          .reduce((sum, p) => sum + p.requests, 0);
        const countersAfter = await postgresCounters(pg);
        downstream.push({
          workload,
          requests: served,
          events: (await streamLength(redis, keyPrefix, workload)) - eventsBefore,
          postgresWrites: countersAfter.writes - countersBefore.writes,
          customerScans: countersAfter.statements - countersBefore.statements,
          transactions: countersAfter.transactions - countersBefore.transactions,
          resendPeriodsBegun: resendPeriodsBegun(startedAt, endedAt),
        });
      }
    } finally {
      await pg.end();
    }

    const targets = checkSystemTargets(phases, scripts, downstream);
    process.stdout.write(
      `\nWhole system (management consuming, own Redis)\n\n${phaseTable(phases)}\n\n${costTable(scripts, downstream)}\n\n${targetTable(targets)}\n`,
    );
    const file = await writeBenchResults('system', {
      machine,
      settings: { ...config, keyPrefix, databaseName },
      phases,
      scripts,
      downstream,
      targets,
    });
    process.stdout.write(`\nresults: ${file}\n`);
    if (targets.some((target) => !target.met)) process.exitCode = 1;
  } finally {
    for (const server of servers) await server.stop();
    await management?.stop();
    redis?.disconnect();
    await redisServer?.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    clearTimeout(watchdog);
  }
}

type Requests = Record<Server, Record<Workload, SignedRequest[]>>;
type Usage = {
  calls: number;
  usec: number;
  /** CPU time of the Redis process, of the server under load and of management, during its rounds. */
  cpuUsec: number;
  serverCpuUsec: number;
  managementCpuUsec: number;
};

/**
 * Row writes (inserted + updated + deleted) of the customer tables, the ones a customer seen writes
 * (management's background jobs write others meanwhile: the pool telemetry rollup), scans of the customers table (each
 * customer-seen upsert statement scans it; nothing else reads it during the run) and committed
 * transactions (including management's background polling) of the bench database.
 */
interface PostgresCounters {
  writes: number;
  statements: number;
  transactions: number;
}

/** The service's partners in management's database, each with a pool, as the operator makes them. */
async function seedServicePartners(databaseUrl: string): Promise<Record<Workload, string>> {
  const dataSource = createDataSource(databaseUrl);
  await dataSource.initialize();
  try {
    const services = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    });
    const secrets = {} as Record<Workload, string>;
    for (const [index, workload] of (['new', 'existing'] as const).entries()) {
      const name = serviceAdvId(workload);
      secrets[workload] = `bench-secret-${randomUUID()}`;
      await services.partners.create({
        name,
        username: `${name}-api`,
        password: 'bench password, loopback only',
        signingSecret: secrets[workload],
        allowIps: ['127.0.0.1'],
      });
      const size = workload === 'new' ? NEW_SESSION_POOL : Math.ceil(EXISTING_SESSIONS * 1.25);
      const numbers = Array.from({ length: size }, (_, i) => `+${FIRST_POOL_NUMBER + index * 100_000 + i}`);
      await services.numbers.add(name, 'pool', numbers, new Date());
    }
    return secrets;
  } finally {
    await dataSource.destroy();
  }
}

function serviceAdvId(workload: Workload): string {
  return `bench-service-${workload}`;
}

/**
 * Requests per server and workload. The service's partners come from management's projection; the
 * minimal server's are written directly. Existing sessions are made by each server's own script.
 */
async function prepareWorkloads(
  redis: RedisConnection,
  keyPrefix: string,
  secrets: Record<Workload, string>,
): Promise<Requests> {
  const requests = { minimal: {}, service: {} } as Requests;
  for (const workload of ['new', 'existing'] as const) {
    const partner = await projectedPartner(redis, keyPrefix, serviceAdvId(workload));
    if (partner.signingSecret !== secrets[workload])
      throw new Error(`projection of ${partner.advId} is not this run's`);
    const sessions =
      workload === 'existing' ? await createSessions(redis, keyPrefix, partner, EXISTING_SESSIONS) : null;
    requests.service[workload] = signedRequests(partner, sessions);
  }
  const allocator = minimalAllocator(redis, keyPrefix);
  for (const [index, workload] of (['new', 'existing'] as const).entries()) {
    const { config } = await createBenchPartner(redis, keyPrefix, 'minimal', workload, 50 + index);
    let sessions: string[] | null = null;
    if (workload === 'existing') {
      sessions = Array.from({ length: EXISTING_SESSIONS }, () => randomUUID());
      for (const id of sessions) await allocator.allocate(config, id, Date.now());
    }
    requests.minimal[workload] = signedRequests(config, sessions);
  }
  log(`prepared 4 partners and ${2 * EXISTING_SESSIONS} existing sessions`);
  return requests;
}

/** The partner's settings once management's start-up rebuild has written them. */
async function projectedPartner(
  redis: RedisConnection,
  keyPrefix: string,
  advId: string,
): Promise<PartnerConfig> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const keys = partnerKeys(keyPrefix, advId);
  for (;;) {
    const partner = decodePartnerConfig(await redis.hgetall(keys.config));
    if (partner !== null && (await redis.exists(keys.pool)) === 1) return partner;
    if (Date.now() > deadline)
      throw new Error(`management did not project ${advId} within ${READY_TIMEOUT_MS} ms`);
    await sleep(200);
  }
}

/** One workload and mode on both servers in alternating rounds; Redis script time taken per round. */
async function runPhase(
  config: SystemBenchConfig,
  redis: RedisConnection,
  pids: { redis: number; management: number },
  servers: ServerUnderTest[],
  workload: Workload,
  mode: Mode,
  requests: Requests,
  usage: Map<Server, Usage>,
): Promise<PhaseResult[]> {
  const connections = mode === 'rate' ? config.rateConnections : config.connections;
  const offeredRate = mode === 'rate' ? config.rate : null;
  const roundSeconds = config.durationSeconds / config.rounds;
  log(
    `${workload} sessions, ${offeredRate === null ? 'saturation' : `${offeredRate} req/s`}: ${config.rounds} × ${roundSeconds} s per server`,
  );
  const rounds = new Map<string, RawLoad[]>(servers.map((server) => [server.name, []]));
  for (let round = 0; round < config.rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      // Redis's own figures of this round alone: its counters start from zero (the bench's own Redis).
      await redis.config('RESETSTAT');
      const cpuBefore = [
        processCpuUsec(pids.redis),
        processCpuUsec(server.pid),
        processCpuUsec(pids.management),
      ];
      const raw = await runLoad({
        baseUrl: server.baseUrl,
        requests: requests[server.name as Server][workload],
        connections,
        durationSeconds: roundSeconds,
        overallRate: offeredRate ?? undefined,
      });
      const cpuAfter = [
        processCpuUsec(pids.redis),
        processCpuUsec(server.pid),
        processCpuUsec(pids.management),
      ];
      const after = parseCommandStats(await redis.info('commandstats'));
      // Only the server under load runs scripts now: management's consumer reads streams, never EVALSHA.
      const script = commandDelta(new Map(), after, 'evalsha');
      const total = usage.get(server.name as Server)!;
      total.calls += script.calls;
      total.usec += script.usec;
      total.cpuUsec += cpuAfter[0]! - cpuBefore[0]!;
      total.serverCpuUsec += cpuAfter[1]! - cpuBefore[1]!;
      total.managementCpuUsec += cpuAfter[2]! - cpuBefore[2]!;
      rounds.get(server.name)!.push(raw);
    }
  }
  return servers.map((server) => ({
    server: server.name,
    workload,
    mode,
    connections,
    offeredRate,
    ...summarizeLoads(rounds.get(server.name)!),
  }));
}

async function streamLength(redis: RedisConnection, keyPrefix: string, workload: Workload): Promise<number> {
  return redis.xlen(partnerKeys(keyPrefix, serviceAdvId(workload)).customerEvents);
}

/** Postgres' own counters of the bench database so far (see PostgresCounters). */
async function postgresCounters(pg: Client): Promise<PostgresCounters> {
  const result = await pg.query<{ writes: string; statements: string; transactions: string }>(
    `SELECT (SELECT COALESCE(SUM(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables
              WHERE relname LIKE 'customer%')::text AS writes,
            (SELECT COALESCE(SUM(COALESCE(idx_scan, 0) + seq_scan), 0) FROM pg_stat_user_tables
              WHERE relname = 'customers')::text AS statements,
            (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::text AS transactions`,
  );
  const row = result.rows[0]!;
  return {
    writes: Number(row.writes),
    statements: Number(row.statements),
    transactions: Number(row.transactions),
  };
}

// The consumer's last batch must be applied, and its backend must have reported its counters
// (PostgreSQL reports a backend's table counters at the latest 10 s after it went idle).
async function settle(config: SystemBenchConfig): Promise<void> {
  if (config.statsSettleSeconds > 0) log(`waiting ${config.statsSettleSeconds} s for Postgres' counters`);
  await sleep(config.statsSettleSeconds * 1000);
}

function costTable(scripts: ScriptCost[], downstream: DownstreamCost[]): string {
  const rows = [
    [
      'workload',
      'server',
      'script calls',
      'Redis µs per call',
      'Redis CPU µs per request',
      'server CPU µs per request',
      'management CPU µs per request',
      'stream entries / 1,000',
      'customer row writes / 1,000',
      'customers scans / 1,000',
      'Postgres commits / 1,000',
    ],
  ];
  for (const script of scripts) {
    const costs =
      script.server === 'service' ? downstream.find((d) => d.workload === script.workload) : undefined;
    rows.push([
      script.workload,
      script.server,
      String(script.calls),
      perCall(script).toFixed(1),
      (script.cpuUsec / script.calls).toFixed(1),
      (script.serverCpuUsec / script.calls).toFixed(1),
      (script.managementCpuUsec / script.calls).toFixed(1),
      costs === undefined ? '-' : perThousand(costs.events, costs.requests).toFixed(2),
      costs === undefined ? '-' : perThousand(costs.postgresWrites, costs.requests).toFixed(2),
      costs === undefined ? '-' : perThousand(costs.customerScans, costs.requests).toFixed(2),
      costs === undefined ? '-' : perThousand(costs.transactions, costs.requests).toFixed(2),
    ]);
  }
  return table(rows);
}

function targetTable(checks: TargetCheck[]): string {
  return table([
    ['target', 'measured', 'met'],
    ...checks.map((c) => [c.target, c.measured, c.met ? 'yes' : 'NO']),
  ]);
}

async function describeMachine(redis: RedisConnection, serverUrl: string) {
  const info = await redis.info('server');
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const version = await client.query<{ version: string }>('SELECT version()');
    return {
      host: hostname(),
      os: `${process.platform} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      node: process.version,
      redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
      postgres: version.rows[0]!.version.split(' on ')[0]!,
      loadAverage: loadavg()
        .map((load) => load.toFixed(2))
        .join(' '),
    };
  } finally {
    await client.end();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function log(message: string): void {
  process.stderr.write(`[bench:system] ${message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
