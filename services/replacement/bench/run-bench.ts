import { randomBytes } from 'node:crypto';
import { cpus, hostname, release } from 'node:os';
import { ConfigError, createLogger, createRedisClient, type RedisConnection } from '@trackline/platform';
import { loadBenchConfig, type BenchConfig } from './bench-config';
import {
  createBenchPartner,
  createSessions,
  deleteRunKeys,
  EXISTING_SESSIONS,
  signedRequests,
  type Workload,
} from './bench-fixtures';
import { runLoad, summarizeLoads, type RawLoad, type SignedRequest } from './bench-load';
import {
  checkTargets,
  phaseTable,
  targetTable,
  type Mode,
  type PhaseResult,
  type ServerName,
} from './bench-report';
import { writeBenchResults } from './bench-results';
import { startBareServer, startService, waitUntilServing, type ServerUnderTest } from './bench-servers';

const READY_TIMEOUT_MS = 15_000;

/**
 * `pnpm bench` (docs/benchmarks.md): the bare node:http baseline and the real service, side by side in one
 * run against the local Redis, each in its own child process, autocannon in this one. Results go to
 * stdout and bench-results/replacement-<time>.json; every key of the run is deleted at the end.
 */
async function main(): Promise<void> {
  const config = loadBenchConfig(process.env);
  const keyPrefix = `bench-${randomBytes(4).toString('hex')}:`;
  const redis = createRedisClient({
    url: config.redisUrl,
    clusterNodes: [],
    connectTimeoutMs: 2000,
    commandTimeoutMs: 10_000,
    maxReconnectDelayMs: 1000,
    queueWhileDisconnected: true,
    name: 'bench-setup',
    logger: createLogger({ service: 'bench', level: 'warn' }),
  });
  const servers: ServerUnderTest[] = [];
  try {
    const machine = await describeMachine(redis);
    log(
      `machine: ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, redis ${machine.redis}; key prefix ${keyPrefix}`,
    );

    const requests = await prepareWorkloads(redis, keyPrefix);
    const settings = {
      redisUrl: config.redisUrl,
      keyPrefix,
      serviceLogLevel: config.serviceLogLevel,
      cpuProfileDir: config.cpuProfileDir,
    };
    servers.push(await startBareServer(settings), await startService(settings));
    log(`bare server pid ${servers[0]!.pid}, service pid ${servers[1]!.pid}`);
    for (const server of servers)
      await waitUntilServing(server, requests[server.name]!.new, READY_TIMEOUT_MS);

    for (const server of servers) {
      if (config.warmupSeconds === 0) break;
      log(`warm-up: ${server.name}, ${config.warmupSeconds} s`);
      await runLoad({
        baseUrl: server.baseUrl,
        requests: requests[server.name]!.new,
        connections: config.connections,
        durationSeconds: config.warmupSeconds,
      });
    }

    const phases: PhaseResult[] = [];
    for (const mode of ['saturation', 'rate'] as const) {
      for (const workload of ['new', 'existing'] as const) {
        phases.push(...(await runPhase(config, servers, workload, mode, requests)));
      }
    }

    const targets = checkTargets(phases);
    process.stdout.write(`\n${phaseTable(phases)}\n\n${targetTable(targets)}\n`);
    const file = await writeBenchResults('replacement', {
      machine,
      settings: { ...config, keyPrefix },
      phases,
      targets,
    });
    process.stdout.write(`\nresults: ${file}\n`);
    if (targets.some((target) => !target.met)) process.exitCode = 1;
  } finally {
    for (const server of servers) await server.stop();
    const deleted = await deleteRunKeys(redis, keyPrefix).catch((error: unknown) => {
      process.stderr.write(`could not delete the keys of ${keyPrefix}*: ${String(error)}\n`);
      return 0;
    });
    log(`deleted ${deleted} keys of ${keyPrefix}*`);
    redis.disconnect();
  }
}

type Requests = Partial<Record<ServerName, Record<Workload, SignedRequest[]>>>;

/** A partner per server and workload; the existing-session partners get their sessions now. */
async function prepareWorkloads(redis: RedisConnection, keyPrefix: string): Promise<Requests> {
  const requests = {} as Requests;
  let index = 0;
  for (const server of ['bare', 'service'] as const) {
    const fresh = await createBenchPartner(redis, keyPrefix, server, 'new', index++);
    const existing = await createBenchPartner(redis, keyPrefix, server, 'existing', index++);
    const sessionIds = await createSessions(redis, keyPrefix, existing.config, EXISTING_SESSIONS);
    requests[server] = {
      new: signedRequests(fresh.config, null),
      existing: signedRequests(existing.config, sessionIds),
    };
  }
  log(`prepared 4 partners and ${2 * EXISTING_SESSIONS} existing sessions`);
  return requests;
}

/** One workload and mode on both servers, in alternating rounds (A B, B A, …), pooled per server. */
async function runPhase(
  config: BenchConfig,
  servers: ServerUnderTest[],
  workload: Workload,
  mode: Mode,
  requests: Requests,
): Promise<PhaseResult[]> {
  const connections = mode === 'rate' ? config.rateConnections : config.connections;
  const offeredRate = mode === 'rate' ? config.rate : null;
  const roundSeconds = config.durationSeconds / config.rounds;
  log(
    `${workload} sessions, ${mode === 'rate' ? `${offeredRate} req/s` : 'saturation'}: ${config.rounds} × ${roundSeconds} s per server`,
  );
  const rounds = new Map<ServerName, RawLoad[]>(servers.map((server) => [server.name, []]));
  for (let round = 0; round < config.rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const raw = await runLoad({
        baseUrl: server.baseUrl,
        requests: requests[server.name]![workload],
        connections,
        durationSeconds: roundSeconds,
        overallRate: offeredRate ?? undefined,
      });
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

async function describeMachine(redis: RedisConnection) {
  const info = await redis.info('server');
  return {
    host: hostname(),
    os: `${process.platform} ${release()}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
  };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
