import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '@trackline/platform';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementApp, type ManagementApp, type ManagementAppOptions } from '../app';
import { openMainDatabase } from '../composition/management-connections';
import { createManagementServices, type ManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { loadManagementConfig, type ManagementConfig } from '../config/management-config';
import type { Partner } from '../partners/partner';

export const TEST_NONCE_SECRET = 'test-nonce-secret-of-at-least-32-characters';

/** One test file's stores: a migrated database of its own and a Redis key namespace. */
export interface TestStores {
  database: TestDatabase;
  redis: TestRedis;
  dataDir: string;
  /** Services on their own connection, for arranging data (partners) the way the operator does. */
  services: ManagementServices;
  dataSource: DataSource;
  release(): Promise<void>;
}

export async function createTestStores(): Promise<TestStores> {
  const database = await createTestDatabase();
  const redis = createTestRedis();
  const dataDir = await mkdtemp(join(tmpdir(), 'trackline-mgmt-'));
  // The same config, pool and composition functions as the service (docs/architecture.md,
  // Composition), without Redis: arranging data writes Postgres only (a starting service rebuilds
  // the projections from it).
  const config = testConfig({ database, redis, dataDir });
  const dataSource = await openMainDatabase(config);
  const services = createManagementServices(createManagementStores(dataSource), config);
  return {
    database,
    redis,
    dataDir,
    services,
    dataSource,
    release: async () => {
      await dataSource.destroy();
      await redis.cleanup();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates a partner the way the operator does, with digest username `<name>-api`, so tests can
 * authenticate as it from the addresses in allowIps.
 */
export function createDigestPartner(
  stores: TestStores,
  name: string,
  password: string,
  allowIps: string[],
): Promise<Partner> {
  return stores.services.partners.create({
    name,
    username: `${name}-api`,
    password,
    signingSecret: 'sixteen-chars-ok',
    allowIps,
  });
}

export function testConfig(
  stores: Pick<TestStores, 'database' | 'redis' | 'dataDir'>,
  env: Record<string, string> = {},
): ManagementConfig {
  return loadManagementConfig({
    MANAGEMENT_PORT: '0',
    MANAGEMENT_HOST: '127.0.0.1',
    DATA_DIR: stores.dataDir,
    DATABASE_URL: stores.database.url,
    REDIS_URL: stores.redis.url,
    REDIS_KEY_PREFIX: stores.redis.keyPrefix,
    DIGEST_NONCE_SECRET: TEST_NONCE_SECRET,
    LOG_LEVEL: 'silent',
    // The limiter runs in every test (its headers on every answer), with a budget no test reaches;
    // the rate-limit tests set their own.
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  });
}

export interface RunningService {
  app: ManagementApp;
  port: number;
  logger: Logger;
  close(): Promise<void>;
}

/** The real management app (composition root) on a free loopback port over real HTTPS. */
export async function startTestService(
  config: ManagementConfig,
  options: ManagementAppOptions & { logger?: Logger } = {},
): Promise<RunningService> {
  const logger = options.logger ?? createLogger({ service: 'management-test', level: 'silent' });
  const app = await createManagementApp(config, logger, options);
  const port = await app.listen();
  return { app, port, logger, close: () => app.close() };
}
