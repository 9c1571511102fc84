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
// one. The tests prove every request is answered while Redis is still gone: Redis comes back only
// after the last answer arrived, so none of them waited for it. How fast they come (about the
// deadline) is measured by the bench (docs/benchmarks.md, Provider voice webhook), not asserted here:
// timings belong in benches (docs/testing.md).
jest.setTimeout(60_000);

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

interface Answer {
  status: number;
  success: unknown;
}

async function request(): Promise<Answer> {
  const call = await sendReplacementRequest(baseUrl, webRequest(partner.advId, '22334455'), {
    secret: partner.signingSecret,
    httpStatuses: true,
  });
  return { status: call.status, success: call.body.success };
}

/** Eight clients, each sending five requests back to back; every answer is collected. */
async function load(): Promise<Answer[]> {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let sent = 0; sent < 5; sent++) answers.push(await request());
    }),
  );
  return answers;
}

const served = (answer: Answer): boolean => answer.status === 200 && answer.success === true;
const refused = (answer: Answer): boolean => answer.status === 500 && answer.success === false;

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readyStatus(): Promise<number> {
  const response = await fetch(`${baseUrl}/ready`);
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  port = await freePort();
  redisProcess = await startRedis();
  await writeProjection();
  // The production wiring: the app makes its own client from config (no offline queue, a command
  // timeout, partner settings cached for 1 s). The deadlines are wider than production's so that a
  // busy test machine cannot turn a slow but healthy Redis answer into a refusal; what is asserted is
  // which path answers, not how fast.
  const config = testConfig(prefix, { storeDeadlineMs: 1000, partnerConfigCacheMs: 1000 });
  config.redis = {
    ...config.redis,
    url: `redis://127.0.0.1:${port}`,
    commandTimeoutMs: 500,
    maxReconnectDelayMs: 100,
  };
  replacement = createReplacementApp({ config, logger: silentLogger });
  server = createServer(replacement.handler);
  baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  await eventually(async () => (await readyStatus()) === 200);
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await replacement?.close();
  if (redisProcess) await stopRedis(redisProcess);
});

it('answers every request while Redis is frozen, and recovers when it continues', async () => {
  // The first request loads the partner's settings and the script: not part of the baseline.
  await eventually(async () => (await request()).success === true);
  expect((await load()).filter((answer) => !served(answer))).toEqual([]);

  redisProcess!.kill('SIGSTOP');
  try {
    const during = await load();
    expect(during).toHaveLength(40);
    expect(during.filter((answer) => !refused(answer))).toEqual([]);
    expect(await readyStatus()).toBe(503);
  } finally {
    redisProcess!.kill('SIGCONT');
  }

  await eventually(async () => (await request()).success === true);
  expect((await load()).filter((answer) => !served(answer))).toEqual([]);
  expect(await readyStatus()).toBe(200);
});

it('answers every request while Redis is down, and recovers when it is back', async () => {
  await stopRedis(redisProcess!);
  const during = await load();
  expect(during).toHaveLength(40);
  expect(during.filter((answer) => !refused(answer))).toEqual([]);
  expect(await readyStatus()).toBe(503);

  // A restarted Redis is empty (no persistence): management would rebuild its projections.
  redisProcess = await startRedis();
  await writeProjection();
  await eventually(async () => (await readyStatus()) === 200);
  await eventually(async () => (await request()).success === true);
  expect((await load()).filter((answer) => !served(answer))).toEqual([]);
});
