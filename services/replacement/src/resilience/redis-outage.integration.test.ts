import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { writePartnerProjection } from '@trackline/contracts';
import { listen } from '@trackline/platform';
import { freePort } from '@trackline/test-harness';
import { Redis } from 'ioredis';
import { createReplacementApp, type ReplacementApp } from '../app';
import {
  partnerConfig,
  poolNumbers,
  projection,
  silentLogger,
  testConfig,
  uniqueAdvId,
} from '../test-support/fixtures';
import { sendReplacementRequest, webRequest } from '../test-support/partner-client';

// With Redis down or stalled every request is answered on the 500 path by the store deadline
// (REQUEST_STORE_DEADLINE_MS, docs/configuration.md), and service resumes by itself. This file runs
// its own redis-server so it can stop, freeze (SIGSTOP) and restart it without touching the shared
// one. The tests prove the answers come while Redis is still gone, within the client's 1,500 ms
// budget (the timeout the replacement API advises its clients to use). How fast they come (about
// the deadline) is measured by the bench (docs/benchmarks.md), not asserted here: this machine is
// shared and noisy.
jest.setTimeout(60_000);

/** The partner's client gives up after this long; a request waiting for Redis would pass it. */
const CLIENT_BUDGET_MS = 1_500;
const partner = partnerConfig(uniqueAdvId('outage'));
const prefix = 'outage:';

let port: number;
let redisProcess: ChildProcess | undefined;
let replacement: ReplacementApp;
let server: Server;
let baseUrl: string;

function startRedis(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
}

async function writeProjection(): Promise<void> {
  const admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  try {
    await writePartnerProjection(admin, prefix, projection(partner, poolNumbers(10)));
  } finally {
    admin.disconnect();
  }
}

async function timedRequest(): Promise<{ ms: number; status: number; success: unknown }> {
  const started = performance.now();
  const call = await sendReplacementRequest(baseUrl, webRequest(partner.advId, '22334455'), {
    secret: partner.signingSecret,
    httpStatuses: true,
  });
  return { ms: performance.now() - started, status: call.status, success: call.body.success };
}

/** Runs `workers` clients back to back for `durationMs`; every answer is collected. */
async function load(
  durationMs: number,
  workers = 8,
): Promise<Array<{ ms: number; status: number; success: unknown }>> {
  const results: Array<{ ms: number; status: number; success: unknown }> = [];
  const until = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) results.push(await timedRequest());
    }),
  );
  return results;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readyStatus(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/ready`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

beforeAll(async () => {
  port = await freePort();
  redisProcess = await startRedis();
  await writeProjection();
  // The production wiring: the app makes its own client from config (no offline queue, 100 ms
  // command timeout, partner settings cached for 1 s).
  const config = testConfig(prefix, { storeDeadlineMs: 150, partnerConfigCacheMs: 1000 });
  config.redis = {
    ...config.redis,
    url: `redis://127.0.0.1:${port}`,
    commandTimeoutMs: 100,
    maxReconnectDelayMs: 100,
  };
  replacement = createReplacementApp({ config, logger: silentLogger });
  server = createServer(replacement.handler);
  baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  await eventually(async () => (await readyStatus()).status === 200);
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await replacement?.close();
  if (redisProcess) await stopRedis(redisProcess);
});

it('answers inside the client budget while Redis is frozen, and recovers when it continues', async () => {
  expect((await load(300)).every((r) => r.status === 200 && r.success === true)).toBe(true);

  redisProcess!.kill('SIGSTOP');
  try {
    const during = await load(1500);
    expect(during.length).toBeGreaterThan(20);
    expect(during.filter((r) => r.status !== 500 || r.success !== false)).toEqual([]);
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(CLIENT_BUDGET_MS);
    const ready = await readyStatus();
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(CLIENT_BUDGET_MS);
  } finally {
    redisProcess!.kill('SIGCONT');
  }

  await eventually(async () => (await timedRequest()).success === true);
  const after = await load(300);
  expect(after.every((r) => r.status === 200 && r.success === true)).toBe(true);
  expect((await readyStatus()).status).toBe(200);
});

it('answers inside the client budget while Redis is down, and recovers when it is back', async () => {
  await stopRedis(redisProcess!);
  const during = await load(1000);
  expect(during.length).toBeGreaterThan(20);
  expect(during.filter((r) => r.status !== 500 || r.success !== false)).toEqual([]);
  expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(CLIENT_BUDGET_MS);
  expect((await readyStatus()).status).toBe(503);

  // A restarted Redis is empty (no persistence): management would rebuild its projections.
  redisProcess = await startRedis();
  await writeProjection();
  await eventually(async () => (await readyStatus()).status === 200);
  await eventually(async () => (await timedRequest()).success === true);
  const after = await load(300);
  expect(after.every((r) => r.status === 200 && r.success === true)).toBe(true);
});
