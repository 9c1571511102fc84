import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createRedisClient, EnvReader, type RedisConnection } from '@trackline/platform';
import { createBenchPartner, createSessions, signedRequests, type Workload } from './bench-fixtures';
import type { SignedRequest } from './bench-load';
import { freePort } from './bench-servers';
import { dumpTotal, garbageCollectionCost, parsePerfMap, selfCosts } from './instruction-report';

const KEY_PREFIX = 'instr:';
const CONCURRENCY = 8;
const EXISTING_SESSIONS = 500;
/** Under valgrind a request takes tens of ms; the servers' Redis timeouts are raised to match. */
const SLOW_TIMEOUT_MS = '10000';

/**
 * CPU instructions per replacement request of the service and of the minimal bare server
 * (docs/benchmarks.md, "Instructions per request"): each server in turn under `valgrind
 * --tool=callgrind` with counting off, warmed up with BENCH_INSTRUCTIONS_WARM_UP requests (enough
 * for the bench pool's 20,000 numbers to have been handed out once, so the service's national
 * forms are remembered), then counted over BENCH_INSTRUCTIONS_REQUESTS more, eight at a time over
 * keep-alive connections, against a private Redis. Unlike CPU time, the count does not grow while
 * other processes hold the core; on a quiet machine runs of one build agree within 0.5–2 %, but
 * V8's compilation and garbage collection are counted too, and a busy machine moves when they land
 * in the counted window: compare builds run for run on a quiet machine. Prints instructions per request, the minimal server's ÷ the service's
 * (the throughput ratio a server bound by its own core would show), and the service's most costly
 * functions, JavaScript named through `--perf-basic-prof`; and each count without V8's garbage
 * collection (garbageCollectionCost), which a counted window holds more or less of by chance. With BENCH_INSTRUCTIONS_KEEP_DIR, each
 * counted window's callgrind dump and perf map are kept there.
 */
async function main(): Promise<void> {
  const read = new EnvReader(process.env);
  const warmUp = read.integer('BENCH_INSTRUCTIONS_WARM_UP', 22_000, { min: 0, max: 1_000_000 });
  const counted = read.integer('BENCH_INSTRUCTIONS_REQUESTS', 3_000, { min: 100, max: 100_000 });
  const top = read.integer('BENCH_INSTRUCTIONS_TOP', 30, { min: 0, max: 500 });
  const keep = read.optionalString('BENCH_INSTRUCTIONS_KEEP_DIR');
  read.done();
  if (keep !== undefined) await mkdir(keep, { recursive: true });
  const folder = await mkdtemp(join(tmpdir(), 'tl-instructions-'));
  const redisPort = await freePort();
  const redisServer = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const redis = createRedisClient({
    url: redisUrl,
    clusterNodes: [],
    connectTimeoutMs: 10_000,
    commandTimeoutMs: 60_000,
    maxReconnectDelayMs: 200,
    queueWhileDisconnected: true,
    name: 'bench-instructions',
    logger: createLogger({ service: 'bench-instructions', level: 'error' }),
  });
  try {
    const results: string[][] = [];
    for (const workload of ['new', 'existing'] as const) {
      const perServer: Record<string, number> = {};
      const withoutGc: Record<string, number> = {};
      for (const server of ['minimal', 'service'] as const) {
        await redis.flushall();
        const requests = await prepare(redis, server, workload);
        process.stdout.write(`${server}, ${workload} sessions: warming up with ${warmUp} requests\n`);
        const measured = await measure(server, redisUrl, requests, warmUp, counted, folder);
        if (keep !== undefined) {
          // For callgrind_annotate --tree=caller: which code calls a costly function.
          await copyFile(measured.dump, join(keep, `callgrind.${server}.${workload}`));
          await writeFile(join(keep, `perf.${server}.${workload}.map`), measured.perfMap);
        }
        const collecting = garbageCollectionCost(measured.functions) / counted;
        perServer[server] = measured.perRequest;
        withoutGc[server] = measured.perRequest - collecting;
        process.stdout.write(
          `${server}, ${workload} sessions: ${Math.round(measured.perRequest)} instructions per request, ` +
            `${Math.round(collecting)} of them garbage collection\n`,
        );
        if (server === 'service' && top > 0) {
          process.stdout.write(
            `the service's functions, ${workload} sessions (self instructions per request):\n`,
          );
          for (const cost of measured.functions.slice(0, top)) {
            process.stdout.write(
              `${String(Math.round(cost.instructions / counted)).padStart(8)}  ${cost.name}\n`,
            );
          }
        }
      }
      results.push([
        workload,
        String(Math.round(perServer.service!)),
        String(Math.round(perServer.minimal!)),
        (perServer.minimal! / perServer.service!).toFixed(2),
        String(Math.round(withoutGc.service!)),
        String(Math.round(withoutGc.minimal!)),
        (withoutGc.minimal! / withoutGc.service!).toFixed(2),
      ]);
    }
    process.stdout.write(
      '\n| workload | service | minimal | minimal ÷ service | service without GC | minimal without GC | ratio without GC |\n' +
        '|---|---|---|---|---|---|---|\n',
    );
    for (const row of results) process.stdout.write(`| ${row.join(' | ')} |\n`);
  } finally {
    redis.disconnect();
    redisServer.kill('SIGTERM');
    await rm(folder, { recursive: true, force: true });
  }
}

async function prepare(
  redis: RedisConnection,
  server: 'minimal' | 'service',
  workload: Workload,
): Promise<SignedRequest[]> {
  const partner = await createBenchPartner(redis, KEY_PREFIX, server, workload, 0);
  const sessions =
    workload === 'new' ? null : await createSessions(redis, KEY_PREFIX, partner.config, EXISTING_SESSIONS);
  return signedRequests(partner.config, sessions);
}

async function measure(
  server: 'minimal' | 'service',
  redisUrl: string,
  requests: SignedRequest[],
  warmUp: number,
  counted: number,
  folder: string,
): Promise<{ perRequest: number; functions: ReturnType<typeof selfCosts>; dump: string; perfMap: string }> {
  const port = await freePort();
  const dump = join(folder, `callgrind.${server}`);
  const target =
    server === 'service'
      ? [join(__dirname, '..', 'src', 'main.js')]
      : [join(__dirname, 'bare-process.js'), String(port), redisUrl, KEY_PREFIX, 'minimal'];
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      // V8 writes the code it compiles: without this valgrind could run a stale translation of it.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${dump}`,
      process.execPath,
      '--perf-basic-prof',
      ...target,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      // The V8 log --perf-basic-prof also writes lands in the folder removed at the end.
      cwd: folder,
      env: {
        ...process.env,
        REPLACEMENT_HOST: '127.0.0.1',
        REPLACEMENT_PORT: String(port),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: KEY_PREFIX,
        LOG_LEVEL: 'warn',
        REDIS_COMMAND_TIMEOUT_MS: SLOW_TIMEOUT_MS,
        REQUEST_STORE_DEADLINE_MS: SLOW_TIMEOUT_MS,
        REDIS_CONNECT_TIMEOUT_MS: SLOW_TIMEOUT_MS,
      },
    },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    await untilAnswering(port, agent, requests[0]!);
    await send(port, agent, requests, warmUp);
    execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
    await send(port, agent, requests, counted);
    execFileSync('callgrind_control', ['--instr=off', String(child.pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--dump', String(child.pid)], { stdio: 'ignore' });
    const dumped = (await readdir(folder)).filter((name) => name.startsWith(`callgrind.${server}.`));
    const latest = join(folder, dumped.sort().pop()!);
    const total = dumpTotal(await readFile(latest, 'utf8'));
    const annotated = execFileSync('callgrind_annotate', ['--threshold=100', latest], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    // valgrind runs Node in its own process, so the perf map is named after valgrind's pid.
    const perfMap = await readFile(`/tmp/perf-${child.pid}.map`, 'utf8').catch(() => '');
    return {
      perRequest: total / counted,
      functions: selfCosts(annotated, parsePerfMap(perfMap)),
      dump: latest,
      perfMap,
    };
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(`/tmp/perf-${child.pid}.map`, { force: true });
  }
}

async function untilAnswering(port: number, agent: Agent, first: SignedRequest): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      await post(port, agent, first);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

async function send(port: number, agent: Agent, requests: SignedRequest[], count: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      await post(port, agent, requests[index % requests.length]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

function post(port: number, agent: Agent, { body, signature }: SignedRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/dynamic-numbers',
        agent,
        headers: { 'content-type': 'application/json', 'x-sign': signature, 'content-length': body.length },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          text.includes('"success":true') ? resolve() : reject(new Error(`refused: ${text}`)),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:instructions failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
