import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { writePartnerProjection } from '@trackline/contracts';
import { providerSignature } from '@trackline/domain';
import { createLogger, createRedisClient, EnvReader } from '@trackline/platform';
import { createReplacementApp, type ReplacementApp } from '../src/app';
import { loadReplacementConfig } from '../src/config/replacement-config';
import { freePort } from './bench-servers';
import { percentile, serverTimingMs } from './bench-stats';

/**
 * `node services/replacement/dist-test/bench/bench-provider-webhooks.js` (docs/benchmarks.md): the
 * provider voice webhook answered from a live Redis, with Redis refusing connections and with
 * Redis frozen (SIGSTOP of a redis-server this script starts on a free port). Sequential requests
 * on loopback; prints client-observed and Server-Timing percentiles. Keys of the run are deleted.
 */
const TOKEN = 'bench-provider-token';
const PUBLIC_URL = 'https://calls.bench.invalid';
const STATIC = '+4790900001';

interface Sample {
  clientMs: number;
  serverMs: number | null;
  status: number;
}

async function main(): Promise<void> {
  const read = new EnvReader(process.env);
  const redisUrl = read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:'])!;
  const requests = read.integer('BENCH_WEBHOOK_REQUESTS', 2000, { min: 10, max: 100_000 });
  read.done();

  const prefix = `bench-twilio-${randomBytes(4).toString('hex')}:`;
  const setup = createRedisClient({
    url: redisUrl, clusterNodes: [], connectTimeoutMs: 2000, commandTimeoutMs: 5000, maxReconnectDelayMs: 1000,
    queueWhileDisconnected: true, name: 'bench-setup', logger: createLogger({ service: 'bench', level: 'warn' }),
  }); // prettier-ignore
  try {
    await writePartnerProjection(setup, prefix, {
      config: {
        advId: 'bench', signingSecret: 'bench-secret-0123456789', country: 'NO', timeZone: 'Europe/Oslo',
        sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'recycle', fallbackNumber: null,
      },
      poolNumbers: [],
      sources: [{
        sourceId: '1', customerId: '1', destnr: STATIC, phonenr: '+4722334455', altNumbers: [], vmDivertAll: false,
        vmDivertBusy: true, vmDivertNoanswer: true, vmGreetingId: null, closed: false,
      }],
    }); // prettier-ignore
    report('live Redis', await measure(redisUrl, prefix, requests));
    report(
      'Redis refusing connections',
      await measure(`redis://127.0.0.1:${await freePort()}`, prefix, requests),
    );
    const frozenPort = await freePort();
    const frozen = await startRedis(frozenPort);
    try {
      report(
        'Redis frozen (SIGSTOP)',
        await measure(`redis://127.0.0.1:${frozenPort}`, prefix, Math.min(requests, 200), frozen),
      );
    } finally {
      frozen.kill('SIGCONT');
      frozen.kill('SIGKILL');
    }
  } finally {
    // Only this run's keys: the index and the partner's keys all start with its prefix.
    let cursor = '0';
    do {
      const [next, keys] = await setup.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await setup.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    setup.disconnect();
  }
}

async function measure(
  redisUrl: string,
  prefix: string,
  count: number,
  freeze?: ChildProcess,
): Promise<Sample[]> {
  const config = loadReplacementConfig({
    REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, TWILIO_AUTH_TOKEN: TOKEN, REPLACEMENT_PUBLIC_URL: PUBLIC_URL,
    LOG_LEVEL: 'silent',
  }); // prettier-ignore
  const app: ReplacementApp = createReplacementApp({
    config,
    logger: createLogger({ service: 'bench', level: 'silent' }),
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  freeze?.kill('SIGSTOP');
  const server: Server = createServer(app.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const samples: Sample[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const fields: [string, string][] = [
        ['AccountSid', 'ACbench'], ['CallSid', `CAbench${i}`], ['CallStatus', 'ringing'], ['Direction', 'inbound'],
        ['From', '+4798765432'], ['To', STATIC],
      ]; // prettier-ignore
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/telephony/twilio/voice`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': providerSignature(TOKEN, `${PUBLIC_URL}/telephony/twilio/voice`, fields),
        },
        body: new URLSearchParams(fields).toString(),
      });
      await response.arrayBuffer();
      samples.push({
        clientMs: performance.now() - started,
        serverMs: serverTimingMs(response.headers.get('server-timing')),
        status: response.status,
      });
    }
  } finally {
    server.closeAllConnections();
    server.close();
    app.redis.disconnect();
  }
  return samples;
}

function report(label: string, samples: Sample[]): void {
  const statuses: Record<number, number> = {};
  for (const sample of samples) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
  const client = samples.map((sample) => sample.clientMs).sort((a, b) => a - b);
  const server = samples
    .flatMap((sample) => (sample.serverMs === null ? [] : [sample.serverMs]))
    .sort((a, b) => a - b);
  const fmt = (values: number[], p: number): string =>
    values.length === 0 ? '-' : percentile(values, p).toFixed(2);
  console.log(
    `${label}: ${samples.length} requests, statuses ${JSON.stringify(statuses)}; ` +
      `client p50 ${fmt(client, 50)} ms, p99 ${fmt(client, 99)} ms, max ${client.at(-1)!.toFixed(2)} ms; ` +
      `Server-Timing p50 ${fmt(server, 50)} ms, p99 ${fmt(server, 99)} ms`,
  );
}

function startRedis(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let output = '';
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', reject);
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
