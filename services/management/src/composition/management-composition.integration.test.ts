import { partnerKeys } from '@trackline/contracts';
import { createLogger, type RedisConnection } from '@trackline/platform';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { loadManagementConfig, type ManagementConfig } from '../config/management-config';
import { createManagementDataSource } from './management-data-source';
import { createApiRedis, openMainDatabase } from './management-connections';
import { createManagementApi, createManagementCore } from './management-root';
import type { RouteDefinition } from '../http/route-definition';
import { callRoute } from '../test-support/route-calls';
import {
  createManagementRoutes,
  createManagementServices,
  type ManagementServices,
} from './management-services';
import { createManagementStores } from './management-stores';

// The wiring the HTTP app uses, end to end on a real database: operator creates a partner, digest
// lookup yields the AuthenticatedPartner, and the customer routes work for it.
describe('management composition', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let services: ManagementServices;
  let routes: RouteDefinition[];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    services = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    });
    routes = createManagementRoutes(services);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('serves a partner found by its digest username', async () => {
    await services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'correct horse',
      signingSecret: 'sixteen-chars-ok',
    });
    await services.partners.defineCustomField('acme', 'customer', 'custom_1');
    const credentials = await services.partners.findForDigest('acme-api');
    expect(credentials).not.toBeNull();
    const partner = credentials!.partner;
    const now = new Date();

    // Through the real route registration, as the partner's client sees it.
    const created = await callRoute(routes, 'POST', '/customers', {
      partner,
      now,
      body: { name: 'Kari AS', custnr: '100', custom_1: 'x' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ customers: [{ name: 'Kari AS', custnr: '100', custom_1: 'x' }] });
    const customerId = created.body.customers[0].customer_id as string;

    const deleted = await callRoute(routes, 'DELETE', '/customers/:customerId', {
      partner,
      now,
      params: { customerId },
    });
    expect(deleted.body).toMatchObject({ customers: [{ customer_id: customerId }] });
    expect((await callRoute(routes, 'GET', '/customers', { partner, now })).body).toEqual({ customers: [] });
  });
});

// The root the HTTP app and the CLI build from: config → connections → core → API objects.
describe('management composition root', () => {
  let database: TestDatabase;
  let testRedis: TestRedis;
  let config: ManagementConfig;
  let dataSource: DataSource;
  let redis: RedisConnection;
  const logger = createLogger({ service: 'composition-test', level: 'silent' });

  beforeAll(async () => {
    database = await createTestDatabase();
    testRedis = createTestRedis();
    config = loadManagementConfig({
      DATABASE_URL: database.url,
      REDIS_URL: testRedis.url,
      REDIS_KEY_PREFIX: testRedis.keyPrefix,
      LOG_LEVEL: 'silent',
    });
    dataSource = await openMainDatabase(config);
    redis = createApiRedis(config, logger);
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  });

  afterAll(async () => {
    redis.disconnect();
    await dataSource.destroy();
    await testRedis.cleanup();
    await database.drop();
  });

  it('projects what the services change, and the metrics read pools through the same services', async () => {
    const core = createManagementCore({ config, dataSource, redis, logger });
    await core.services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'correct horse',
      signingSecret: 'sixteen-chars-ok',
    });
    expect(await redis.exists(partnerKeys(testRedis.keyPrefix, 'acme').config)).toBe(1);

    const api = createManagementApi(core, { config, dataSource, redis, logger, clock: () => new Date() });
    const scraped = await api.metrics.registry.metrics();
    expect(scraped).toContain('trackline_pool_size{partner="acme"} 0');
    expect(scraped).toContain('trackline_metrics_collection_errors_total{collector="pools"} 0');
  });
});
