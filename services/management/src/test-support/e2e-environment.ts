import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createLogger, listen } from '@trackline/platform';
import { createReplacementApp, loadReplacementConfig, type ReplacementApp } from '@trackline/replacement';
import { Redis } from 'ioredis';
import { runCli } from '../cli/run-cli';
import { rawRequest } from './https-request';
import {
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from './test-service';
import { PartnerApi } from './partner-api';

export const TELEPHONY_TOKEN = 'e2e-switch-token-0123456789';

/** Per test and hook: the customer-seen wait alone may take seconds on a loaded machine. */
export const E2E_TIMEOUT_MS = 30_000;

export interface E2ePartner {
  advId: string;
  username: string;
  password: string;
  signingSecret: string;
}

export interface ReplacementService {
  baseUrl: string;
  /** Epoch ms the replacement's pool and routing rules run on; tests set it. */
  clock: { now: number };
  /** Writes the pool telemetry counted so far (the app writes it once a second). */
  flushPoolTelemetry(): Promise<void>;
}

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Both services as they run in production, on one Redis key namespace and this file's own database:
 * management (composition root, HTTPS, digest, customer-seen consumer) and replacement (its app on
 * plain HTTP), with the partner and its numbers made by the operator CLI.
 */
export interface E2eEnvironment {
  stores: TestStores;
  management: RunningService;
  replacement: ReplacementService;
  partner: E2ePartner;
  api: PartnerApi;
  /** A plain client on the shared namespace, for reading what the services wrote. */
  redis: Redis;
  keyPrefix: string;
  /** `pnpm trackline <argv>` against this environment; throws when the command fails. */
  operator(...argv: string[]): Promise<string[]>;
  /**
   * A visitor's page asking for numbers: the partner's signed `POST /dynamic-numbers` on
   * replacement (statuses as HTTP statuses), with the fields of `visit` over a new session's
   * defaults (VISIT_DEFAULTS), at `at` on replacement's clock when given.
   */
  visit(visit?: Visit): Promise<JsonAnswer>;
  /** POST /telephony/route on replacement with the switch's token. */
  route(call: Record<string, unknown>): Promise<JsonAnswer>;
  /** POST /telephony/cdrs on management with the switch's token. */
  ingest(records: unknown): Promise<JsonAnswer>;
  close(): Promise<void>;
}

/**
 * What a visitor's page sends replacement's `POST /dynamic-numbers` (docs/number-replacement.md), any
 * field of it; values of the wrong type are sent as given, for tests of refusals.
 */
export type Visit = { at?: number } & Record<string, unknown>;

/** A new session's request from an ad page, the partner's own `advId` added. */
export const VISIT_DEFAULTS = {
  fullUrl: 'https://www.example.no/ad/1',
  trackingId: 'visitor-1',
  numbers: '22 33 44 55',
  type: 'web',
  fullReferrer: '',
  parameters: {},
  userAgent: 'Mozilla/5.0',
  requestIpAddress: '203.0.113.9',
  sessionId: '',
} as const;

export interface E2eOptions {
  /** A Redis of the test's own (test-support/private-redis.ts) instead of the shared one. */
  redisUrl?: string;
  /** More settings of the management service, on top of the environment's own. */
  managementEnv?: Record<string, string>;
  /** Evaluate autoscaling pools on their schedule, as the service process does. */
  autoscalePools?: boolean;
}

export async function startE2eEnvironment(
  partner: E2ePartner,
  options: E2eOptions = {},
): Promise<E2eEnvironment> {
  const stores = await createTestStores();
  const redisUrl = options.redisUrl ?? stores.redis.url;
  const cliEnv = {
    DATABASE_URL: stores.database.url,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: stores.redis.keyPrefix,
  };
  const operator = async (...argv: string[]): Promise<string[]> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, cliEnv, { out: (line) => out.push(line), err: (line) => err.push(line) });
    if (code !== 0 || err.length > 0)
      throw new Error(`trackline ${argv.join(' ')}: exit ${code}: ${err.join('\n')}`);
    return out;
  };

  let management: RunningService | undefined;
  let replacement: RunningReplacement;
  try {
    // Made before management starts, so its customer-seen consumer knows the partner from the first round.
    await operator(
      'partner:create',
      '--name', partner.advId,
      '--username', partner.username,
      '--password', partner.password,
      '--signing-secret', partner.signingSecret,
      '--allow-ip', '127.0.0.1',
    ); // prettier-ignore
    management = await startTestService(
      testConfig(stores, {
        TELEPHONY_TOKEN,
        CUSTOMER_EVENTS_BLOCK_MS: '50',
        REDIS_URL: redisUrl,
        ...options.managementEnv,
      }),
      { consumeCustomerEvents: true, autoscalePools: options.autoscalePools },
    );
    replacement = await startReplacement(redisUrl, stores.redis.keyPrefix);
  } catch (error) {
    // A half-started environment must not leave its database, keys or consumer loop behind.
    await management?.close();
    await stores.release();
    throw error;
  }
  const redis = new Redis(redisUrl);
  const running = management;

  return {
    stores,
    management: running,
    replacement: {
      baseUrl: replacement.baseUrl,
      clock: replacement.clock,
      flushPoolTelemetry: () => replacement.flushPoolTelemetry(),
    },
    partner,
    api: new PartnerApi(running.port, partner.username, partner.password),
    redis,
    keyPrefix: stores.redis.keyPrefix,
    operator,
    visit: async ({ at, ...fields } = {}) => {
      if (at !== undefined) replacement.clock.now = at;
      const request = JSON.stringify({ ...VISIT_DEFAULTS, advId: partner.advId, ...fields });
      const sign = createHmac('sha1', partner.signingSecret).update(request).digest('hex');
      const response = await fetch(`${replacement.baseUrl}/dynamic-numbers?sign=${sign}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-HTTP-STATUSES': '1' },
        body: request,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    route: async (call) => {
      const response = await fetch(`${replacement.baseUrl}/telephony/route`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TELEPHONY_TOKEN}` },
        body: JSON.stringify(call),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    ingest: async (records) => {
      const result = await rawRequest({
        port: running.port,
        method: 'POST',
        path: '/telephony/cdrs',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TELEPHONY_TOKEN}` },
        body: JSON.stringify(records),
      });
      return { status: result.status, body: result.json() as Record<string, unknown> };
    },
    close: async () => {
      redis.disconnect();
      await replacement.close();
      await running.close();
      await stores.release();
    },
  };
}

interface RunningReplacement extends ReplacementService {
  close(): Promise<void>;
}

async function startReplacement(redisUrl: string, keyPrefix: string): Promise<RunningReplacement> {
  const clock = { now: Date.now() };
  const config = loadReplacementConfig({
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    TELEPHONY_TOKEN,
    // Management's changes must be seen by the next request, not a second later.
    PARTNER_CONFIG_CACHE_MS: '0',
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    REQUEST_STORE_DEADLINE_MS: '5000',
    LOG_LEVEL: 'silent',
  });
  const app: ReplacementApp = createReplacementApp({
    config,
    logger: createLogger({ service: 'replacement-e2e', level: 'silent' }),
    clock: () => clock.now,
  });
  await whenReady(app);
  const server: Server = createServer(app.handler);
  const port = await listen(server, 0, '127.0.0.1');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    clock,
    flushPoolTelemetry: () => app.flushPoolTelemetry(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}

// The app's client fails commands at once while connecting (queueWhileDisconnected off).
function whenReady(app: ReplacementApp): Promise<void> {
  if (app.redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('replacement: Redis not ready within 10 s')), 10_000);
    app.redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
