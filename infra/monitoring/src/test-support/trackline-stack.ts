import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, createTestRedis, freePort } from '@trackline/test-harness';
import {
  descendantPids,
  killGroup,
  spawnLauncher,
  type LauncherProcess,
} from '../../../launcher/src/test-support/launcher-process';
import { REPOSITORY_ROOT } from '../rules-file';

/** What `pnpm start` runs: the built launcher, which runs the built services and CLI. */
export const BUILT_FILES = [
  'infra/launcher/dist/start.js',
  'services/management/dist/main.js',
  'services/management/dist/cli.js',
  'services/replacement/dist/main.js',
];
const RUNNING_LINE = /Press Ctrl-C to stop everything this command started\./;
// Migrations into an empty database and two services on a shared 2-core machine.
const START_TIMEOUT_MS = 90_000;

/** Both services as `pnpm start` runs them, on a database and Redis key namespace of their own. */
export interface TracklineStack {
  managementPort: number;
  replacementPort: number;
  /**
   * The replacement API's signed request for the demo partner, answered with a pool number;
   * `parameters` (a `custnr`) and `headers` (a `traceparent`) added when given.
   */
  replaceNumbers(options?: {
    parameters?: Record<string, string>;
    headers?: Record<string, string>;
  }): Promise<{ status: number; body: Record<string, unknown> }>;
  /** POST /telephony/route on replacement, as the switch sends it. */
  route(bnum: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** POST /telephony/cdrs on management, one answered call to a demo pool number. */
  postCallRecord(
    bnum: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** GET /metrics of a service, straight from its port. */
  metricsText(service: 'management' | 'replacement'): Promise<string>;
  stop(): Promise<void>;
}

interface DemoPartner {
  advId: string;
  signingSecret: string;
}

export function missingBuiltFiles(): string[] {
  return BUILT_FILES.filter((file) => !existsSync(path.join(REPOSITORY_ROOT, file)));
}

/** `env`: settings added to the services' environment (the tracing test's OTEL_* variables). */
export async function startTracklineStack(env: Record<string, string> = {}): Promise<TracklineStack> {
  const database = await createTestDatabase();
  const redis = createTestRedis();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trackline-monitoring-'));
  const telephonyToken = randomBytes(18).toString('base64url');
  const managementPort = await freePort();
  const replacementPort = await freePort();
  let launcher: LauncherProcess | undefined;
  const started = new Set<number>();

  const stop = async (): Promise<void> => {
    if (launcher !== undefined) {
      for (const pid of [launcher.pid, ...descendantPids(launcher.pid)]) started.add(pid);
      for (const pid of started) killGroup(pid);
      await launcher.exited;
    }
    await database.drop();
    await redis.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // Only what the launcher needs: DATABASE_URL (so no embedded Postgres), no settings of the machine.
    launcher = spawnLauncher(path.join(REPOSITORY_ROOT, 'infra/launcher/dist/start.js'), REPOSITORY_ROOT, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.keyPrefix,
      MANAGEMENT_PORT: String(managementPort),
      REPLACEMENT_PORT: String(replacementPort),
      TELEPHONY_TOKEN: telephonyToken,
      LOG_LEVEL: 'warn',
      ...env,
    });
    started.add(launcher.pid);
    await launcher.waitForOutput(RUNNING_LINE, START_TIMEOUT_MS);
    for (const pid of descendantPids(launcher.pid)) started.add(pid);
  } catch (error) {
    await stop();
    throw error;
  }
  const partner = JSON.parse(readFileSync(path.join(dataDir, 'demo-partner.json'), 'utf8')) as DemoPartner;
  const management = `https://127.0.0.1:${managementPort}`;
  const replacement = `http://127.0.0.1:${replacementPort}`;

  const post = async (url: string, body: string, headers: Record<string, string>) => {
    const response = await send(url, 'POST', body, { 'Content-Type': 'application/json', ...headers });
    return { status: response.status, body: JSON.parse(response.text) as Record<string, unknown> };
  };
  const switchAuth = { Authorization: `Bearer ${telephonyToken}` };

  return {
    managementPort,
    replacementPort,
    stop,
    replaceNumbers: (options = {}) => {
      const body = JSON.stringify({
        advId: partner.advId,
        fullUrl: 'https://www.example.no/ad/1',
        trackingId: 'monitoring-visitor-1',
        numbers: '22 33 44 55',
        type: 'web',
        fullReferrer: '',
        parameters: options.parameters ?? {},
        userAgent: 'Mozilla/5.0',
        requestIpAddress: '203.0.113.9',
        sessionId: '',
      });
      const sign = createHmac('sha1', partner.signingSecret).update(body).digest('hex');
      return post(`${replacement}/dynamic-numbers?sign=${sign}`, body, {
        'X-HTTP-STATUSES': '1',
        ...options.headers,
      });
    },
    route: (bnum) =>
      post(
        `${replacement}/telephony/route`,
        JSON.stringify({
          call_id: `monitoring-route-${randomBytes(4).toString('hex')}`,
          anum: '+4798765000',
          bnum,
        }),
        switchAuth,
      ),
    postCallRecord: (bnum, headers = {}) =>
      post(
        `${management}/telephony/cdrs`,
        JSON.stringify({
          call_id: `monitoring-call-${randomBytes(4).toString('hex')}`,
          anum: '+4798765000',
          bnum,
          // The switch's format, a minute ago (UTC): inside the current month's partition.
          start: new Date(Date.now() - 60_000).toISOString().slice(0, 19).replace('T', ' '),
          duration: 45,
          answered: 1,
        }),
        { ...switchAuth, ...headers },
      ),
    metricsText: async (service) => {
      const response = await send(`${service === 'management' ? management : replacement}/metrics`, 'GET');
      if (response.status !== 200) throw new Error(`${service} /metrics answered ${response.status}`);
      return response.text;
    },
  };
}

/**
 * fetch for the replacement's plain HTTP; node:https for management, whose development certificate
 * is self-signed (the switch's routes there answer only over HTTPS).
 */
async function send(
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  if (url.startsWith('http:')) {
    const response = await fetch(url, { method, headers, body });
    return { status: response.status, text: await response.text() };
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
