import { createServer, type Server } from 'node:http';
import { createLogger, listen } from '@trackline/platform';
import { createReplacementApp, loadReplacementConfig, type ReplacementApp } from '@trackline/replacement';
import { ProviderCallSimulator, RecordingServer, type ProviderAccount } from '@trackline/test-harness';
import { Redis } from 'ioredis';
import { runCli } from '../cli/run-cli';
import { PartnerApi } from './partner-api';
import {
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from './test-service';

export const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
export const AUTH_TOKEN = 'provider-auth-token-0123456789abcd';
export const REPLACEMENT_PUBLIC = 'https://calls.trackline.test';
export const MANAGEMENT_PUBLIC = 'https://manage.trackline.test/';
export const MANAGEMENT_BASE = 'https://manage.trackline.test';
export const GREETING_NUMBER = '+4722999000';
export const GRACE_SECONDS = 120;

export interface TwilioEnvironment {
  stores: TestStores;
  management: RunningService;
  /** Epoch ms both services run on. */
  replacementClock: { now: number };
  api: PartnerApi;
  redis: Redis;
  recordings: RecordingServer;
  simulator: ProviderCallSimulator;
  account: ProviderAccount;
  operator(...argv: string[]): Promise<string[]>;
  close(): Promise<void>;
}

export interface EnvironmentPartner {
  advId: string;
  username: string;
  password: string;
  signingSecret: string;
}

/**
 * Both services as deployed behind the public URLs a provider is configured with
 * (docs/telephony.md), a provider account's recording server on loopback, and the simulator
 * mapping the public URLs to the test ports.
 */
export async function startTwilioEnvironment(
  partner: EnvironmentPartner,
  /** More of management's settings (docs/configuration.md), e.g. WEBHOOK_INSECURE_HOSTS. */
  managementEnv: Record<string, string> = {},
): Promise<TwilioEnvironment> {
  const stores = await createTestStores();
  const recordings = new RecordingServer(ACCOUNT_SID, AUTH_TOKEN);
  await recordings.start();
  const cliEnv = {
    DATABASE_URL: stores.database.url,
    REDIS_URL: stores.redis.url,
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
  await operator(
    'partner:create',
    '--name', partner.advId,
    '--username', partner.username,
    '--password', partner.password,
    '--signing-secret', partner.signingSecret,
    '--allow-ip', '127.0.0.1',
  ); // prettier-ignore
  // One clock for both services, as in production; tests move it.
  const replacementClock = { now: Date.now() };
  const management = await startTestService(
    testConfig(stores, {
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      // With a trailing slash, as an operator may well write it.
      MANAGEMENT_PUBLIC_URL: MANAGEMENT_PUBLIC,
      RECORDING_HOSTS: `api.twilio.com,${recordings.host}`,
      GREETING_RECORD_NUMBER: GREETING_NUMBER,
      TWILIO_CALLBACK_GRACE_SECONDS: String(GRACE_SECONDS),
      CUSTOMER_EVENTS_BLOCK_MS: '50',
      ...managementEnv,
    }),
    { consumeCustomerEvents: true, clock: () => new Date(replacementClock.now) },
  );
  const replacement: ReplacementApp = createReplacementApp({
    config: loadReplacementConfig({
      REDIS_URL: stores.redis.url,
      REDIS_KEY_PREFIX: stores.redis.keyPrefix,
      PARTNER_CONFIG_CACHE_MS: '0',
      REDIS_COMMAND_TIMEOUT_MS: '2000',
      REQUEST_STORE_DEADLINE_MS: '5000',
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      REPLACEMENT_PUBLIC_URL: REPLACEMENT_PUBLIC,
      MANAGEMENT_PUBLIC_URL: MANAGEMENT_PUBLIC,
      LOG_LEVEL: 'silent',
    }),
    logger: createLogger({ service: 'replacement-twilio-e2e', level: 'silent' }),
    clock: () => replacementClock.now,
  });
  await new Promise<void>((resolve) =>
    replacement.redis.status === 'ready' ? resolve() : replacement.redis.once('ready', () => resolve()),
  );
  const server: Server = createServer(replacement.handler);
  const replacementPort = await listen(server, 0, '127.0.0.1');
  const account: ProviderAccount = {
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    signatureHeader: 'X-Twilio-Signature',
    targetFor: (url) =>
      url
        .replace(REPLACEMENT_PUBLIC, `http://127.0.0.1:${replacementPort}`)
        .replace(MANAGEMENT_BASE, `https://127.0.0.1:${management.port}`),
  };
  const redis = new Redis(stores.redis.url);
  return {
    stores,
    management,
    replacementClock,
    api: new PartnerApi(management.port, partner.username, partner.password),
    redis,
    recordings,
    simulator: new ProviderCallSimulator(account, recordings),
    account,
    operator,
    close: async () => {
      redis.disconnect();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await replacement.close();
      await management.close();
      await recordings.stop();
      await stores.release();
    },
  };
}
