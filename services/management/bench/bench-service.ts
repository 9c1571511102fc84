import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { rawRequest } from '../src/test-support/https-request';

export const BENCH_TELEPHONY_TOKEN = 'bench-telephony-token-0123456789';
const READY_TIMEOUT_MS = 30_000;

export interface ServiceUnderTest {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export interface ServiceSettings {
  databaseUrl: string;
  redisUrl: string;
  keyPrefix: string;
  dataDir: string;
  logLevel: string;
  /** More of the service's environment (the receivers of webhooks, e-mail and conversions). */
  env?: Record<string, string>;
}

/** The real management service (dist-test/src/main.js, built as dist/main.js is) in a child process, configured as deployed. */
export async function startManagementService(settings: ServiceSettings): Promise<ServiceUnderTest> {
  const port = await freePort();
  // BENCH_CPU_PROF_DIR: a V8 CPU profile of the service, written when it stops; BENCH_SERVICE_NODE_FLAGS:
  // more of Node's and V8's flags (e.g. `--trace-gc`), whose output goes to BENCH_SERVICE_STDOUT
  // (docs/benchmarks.md, Management).
  const profile = process.env.BENCH_CPU_PROF_DIR;
  const flags = [
    ...(profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`]),
    ...(process.env.BENCH_SERVICE_NODE_FLAGS?.split(/\s+/).filter((flag) => flag !== '') ?? []),
  ];
  const stdoutPath = process.env.BENCH_SERVICE_STDOUT;
  const stdout = stdoutPath === undefined ? 'ignore' : openSync(stdoutPath, 'a');
  const child = spawn(process.execPath, [...flags, join(__dirname, '..', 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      MANAGEMENT_PORT: String(port),
      MANAGEMENT_HOST: '127.0.0.1',
      DATA_DIR: settings.dataDir,
      DATABASE_URL: settings.databaseUrl,
      REDIS_URL: settings.redisUrl,
      REDIS_KEY_PREFIX: settings.keyPrefix,
      DIGEST_NONCE_SECRET: 'bench-nonce-secret-of-at-least-32-characters',
      TELEPHONY_TOKEN: BENCH_TELEPHONY_TOKEN,
      LOG_LEVEL: settings.logLevel,
      // As behind a TLS terminator: the header flood measures plain requests the proxy reports as HTTPS.
      TRUST_PROXY: '127.0.0.1',
      // The daily data lifecycle would first be due a minute after start, in the middle of the
      // measurements (and would drop the month the retention measurement loads): asked hourly instead.
      DATA_LIFECYCLE_CHECK_MS: '3600000',
      ...settings.env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  if (typeof stdout === 'number') closeSync(stdout);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitUntilReady(port, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitUntilReady(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`management service exited with ${child.exitCode}`);
    const ready = await rawRequest({ port, method: 'GET', path: '/ready' }).then(
      (result) => result.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`management service not ready within ${READY_TIMEOUT_MS} ms`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
