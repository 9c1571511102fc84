import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { EnvReader } from '@trackline/platform';
import { RedisNumberPoolStore, type AllocationInput } from '../src/pools/number-pool.store';
import { SentCustomerMemory } from '../src/pools/sent-customers.memory';
import { freePort } from './bench-servers';
import { dumpTotal } from './instruction-report';

const SESSIONS = 500;
/** Sessions that saw one number on each of several pages (a visitor going through ads), and the pages. */
const BROWSING_SESSIONS = 100;
const BROWSED_PAGES = ['+4722334455', '+4722334466', '+4722334477', '+4722334488', '+4722334499'];
/**
 * The pool of a partner whose every number is held: each new session there recycles one. As large
 * as the whole-system bench's (bench-fixtures.ts): a pool of at most 128 is a listpack in Redis,
 * whose every score change moves the list, not the sorted set a real pool is.
 */
const USED_UP_POOL = 1_000;

/**
 * CPU instructions Redis spends per allocation-script call (docs/benchmarks.md, Instructions per
 * script call): a private redis-server under `valgrind --tool=callgrind`, counting only while the
 * calls run. Unlike Redis's own µs per call, the count is the same from run to run whatever else
 * the machine does, so a change to lua/allocate-numbers.lua can be judged by a single run. With
 * BENCH_SCRIPT_KEEP_DIR, the callgrind dumps (one per workload) are kept there for callgrind_annotate.
 */
async function main(): Promise<void> {
  const read = new EnvReader(process.env);
  const calls = read.integer('BENCH_SCRIPT_CALLS', 2_000, { min: 100, max: 100_000 });
  const keep = read.optionalString('BENCH_SCRIPT_KEEP_DIR');
  read.done();
  if (keep !== undefined) await mkdir(keep, { recursive: true });
  const folder = keep ?? (await mkdtemp(join(tmpdir(), 'tl-script-')));
  const port = await freePort();
  const redisServer = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(folder, 'callgrind.out')}`,
      'redis-server',
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 200 });
  redis.on('error', () => {}); // refused until valgrind has started the server; waitForRedis decides
  try {
    await waitForRedis(redis);
    const store = new RedisNumberPoolStore(redis, 'script:');
    // As the service runs it: a customer confirmed moments ago is left out of the call (app.ts).
    const remembering = new RedisNumberPoolStore(redis, 'script:', {
      sentCustomers: new SentCustomerMemory(60 * 60_000),
    });
    // Room for every session: a new one takes a free number and never recycles.
    const browsingNumbers = BROWSING_SESSIONS * BROWSED_PAGES.length;
    await redis.zadd('script:{p:acme}:pool', ...poolMembers(SESSIONS + browsingNumbers + 2 * calls + 1));
    let now = Date.now();
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const result = await store.allocate(request((now += 1), null));
      if (result.kind !== 'allocated') throw new Error('the pool was not found');
      sessions.push(result.sessionId);
    }
    const browsing: string[] = [];
    for (let i = 0; i < BROWSING_SESSIONS; i++) {
      let sessionId: string | null = null;
      for (const page of BROWSED_PAGES) {
        const result = await store.allocate(request((now += 1), sessionId, 'acme', page));
        if (result.kind !== 'allocated') throw new Error('the pool was not found');
        sessionId = result.sessionId;
      }
      browsing.push(sessionId!);
    }
    await redis.zadd('script:{p:busy}:pool', ...poolMembers(USED_UP_POOL));
    for (let i = 0; i < USED_UP_POOL; i++) await store.allocate(request((now += 1), null, 'busy'));
    const existing = (i: number) => request((now += 1), sessions[i % SESSIONS]!);
    const fresh = (advId: string) => () => request((now += 1), null, advId);
    const workloads = [
      { name: 'existing session', pools: store, call: existing },
      { name: 'new session', pools: store, call: fresh('acme') },
      { name: 'existing session, customer confirmed', pools: remembering, call: existing },
      { name: 'new session, customer confirmed', pools: remembering, call: fresh('acme') },
      { name: 'new session, pool used up (recycles)', pools: remembering, call: fresh('busy') },
      {
        name: `existing session holding ${BROWSED_PAGES.length} numbers, one shown, customer confirmed`,
        pools: remembering,
        call: (i: number) =>
          request(
            (now += 1),
            browsing[i % BROWSING_SESSIONS]!,
            'acme',
            BROWSED_PAGES[Math.floor(i / BROWSING_SESSIONS) % BROWSED_PAGES.length],
          ),
      },
    ];
    await remembering.allocate(request((now += 1), null));
    await remembering.allocate(request((now += 1), null, 'busy'));
    for (const workload of workloads) {
      const { counted, inScript } = await countInstructions(
        redisServer.pid!,
        folder,
        workload.name.replace(/\W+/g, '-'),
        async () => {
          for (let i = 0; i < calls; i += 50) {
            const batch = Array.from({ length: Math.min(50, calls - i) }, (_, j) =>
              workload.pools.allocate(workload.call(i + j)),
            );
            await Promise.all(batch);
          }
        },
      );
      process.stdout.write(
        `${workload.name}: ${Math.round(counted / calls)} instructions per script call, ` +
          `${Math.round(inScript / calls)} of them inside EVALSHA (${calls} calls)\n`,
      );
    }
  } finally {
    redis.disconnect();
    redisServer.kill('SIGTERM');
    await new Promise((resolve) => redisServer.once('exit', resolve));
    if (keep === undefined) await rm(folder, { recursive: true, force: true });
  }
}

/** A page with one number, a customer and a realistic context, as a classifieds page sends. */
function request(
  now: number,
  sessionId: string | null,
  advId = 'acme',
  numberOnPage = '+4722334455',
): AllocationInput {
  return {
    advId,
    now,
    sessionTtlSeconds: 1_800,
    holdBackSeconds: 60,
    onExhausted: 'recycle',
    sessionId,
    newSessionId: randomUUID(),
    context: {
      type: 'web',
      trackingId: 'visitor-0001',
      fullUrl: 'https://cars.example.com/ad/1234567?utm_source=search',
      fullReferrer: 'https://www.example.org/',
      custnr: 'D-1',
      parameters: { custnr: 'D-1', custname: 'Dealer One', adid: '1234567' },
    },
    customer: { advId, custnr: 'D-1', custname: 'Dealer One', at: now },
    numbersOnPage: [numberOnPage],
  };
}

function poolMembers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => ['0', `+4721${String(i).padStart(6, '0')}`]).flat();
}

/**
 * Zeroes the counters, runs `work`, dumps them and returns the instructions counted in between:
 * all of them, and those inside `evalShaCommand` (the script call itself). The total also holds
 * the server's timer work (`serverCron`, active expiry), which runs per second of wall time, and
 * valgrind makes those seconds many: on a loaded machine the total moves by a few per cent. The
 * count inside the call does not.
 */
async function countInstructions(
  pid: number,
  folder: string,
  label: string,
  work: () => Promise<void>,
): Promise<{ counted: number; inScript: number }> {
  execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' });
  await work();
  execFileSync('callgrind_control', ['--dump', label, String(pid)], { stdio: 'ignore' });
  const dumps = (await readdir(folder)).filter((name) => /^callgrind\.out\.\d+$/.test(name));
  const latest = dumps.sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop())).pop();
  if (latest === undefined) throw new Error('callgrind wrote no dump');
  const text = await readFile(join(folder, latest), 'utf8');
  return { counted: dumpTotal(text), inScript: inclusiveCount(join(folder, latest), 'evalShaCommand') };
}

/** Instructions spent in `fn` and everything it called, from callgrind_annotate's inclusive view. */
function inclusiveCount(dump: string, fn: string): number {
  const report = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', dump], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = report.split('\n').find((row) => new RegExp(`[ :]${fn}( |$)`).test(row));
  if (line === undefined) throw new Error(`${fn} not in the callgrind dump`);
  return Number(line.trim().split(/\s+/)[0]!.replace(/,/g, ''));
}

async function waitForRedis(redis: Redis): Promise<void> {
  const deadline = Date.now() + 30_000;
  await redis.connect().catch(() => undefined);
  while (Date.now() < deadline) {
    if ((await redis.ping().catch(() => '')) === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('redis-server under callgrind did not answer within 30 s');
}

main().catch((error: unknown) => {
  process.stderr.write(`script-instructions failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
