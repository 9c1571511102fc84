import { randomBytes } from 'node:crypto';
import { createRedisClient, pingRedis, type Logger, type RedisConnection } from '@trackline/platform';
import express from 'express';
import type { DataSource } from 'typeorm';
import { createManagementRoutes, createManagementServices } from './composition/management-services';
import { createManagementStores } from './composition/management-stores';
import type { ManagementConfig } from './config/management-config';
import { createDataSource, createReadDataSource } from './db/data-source';
import { AddressList } from './http/address-list';
import { DigestAuthenticator } from './http/digest/digest-authenticator';
import { NonceIssuer } from './http/digest/digest-nonce';
import { RedisNonceCounter } from './http/digest/nonce-counter';
import type { ReadinessCheck } from './http/health.routes';
import type { RouteDefinition } from './http/route-definition';
import { createHttpApp } from './http/http-app';
import { createHttpsFront, type HttpsFront } from './http/https-front';
import { loadTlsMaterial } from './http/tls-certificate';
import { pingRoutes } from './ping/ping.routes';
import { createCdrFeature } from './cdrs/create-cdrs';
import { countedIngestion } from './metrics/counted-ingestion';
import { ManagementMetrics } from './metrics/management-metrics';
import { metricsEndpoint } from './metrics/metrics.routes';
import { TypeormOutboxStatusCounts } from './notifications/outbox-status-counts.store';
import { NumberPoolsService } from './numbers/number-pools.service';
import { RedisPoolBindingsReader } from './numbers/pool-bindings.reader';
import { startCustomerEventsConsumer } from './customer-events/start-customer-events-consumer';
import { TypeormPartnersStore } from './partners/partners.store';
import { RedisSentCustomersRecord } from './customer-events/sent-customers.record';
import { createProjections, projectionListeners } from './projections/create-projections';
import { TELEPHONY_BASE_PATH, telephonyRoutes } from './telephony/telephony.routes';
import { createTwilioTelephony } from './telephony/twilio/create-twilio-telephony';
import type { TwilioCallsService } from './telephony/twilio/twilio-calls.service';

export interface ManagementApp {
  /** Starts listening; resolves with the bound port (0 in the config asks for a free one). */
  listen(): Promise<number>;
  /** Finishes in-flight requests, then closes the stores. */
  close(): Promise<void>;
  front: HttpsFront;
  /** What `GET /metrics` exposes. */
  metrics: ManagementMetrics;
  /** Provider call assembly; tests run its sweep with their clock. */
  twilioCalls: TwilioCallsService;
}

export interface ManagementAppOptions {
  /** The clock requests read; tests move it to expire nonces. */
  clock?: () => Date;
  /** More operations behind the same platform; the platform's tests mount probe routes here. */
  extraRoutes?: RouteDefinition[];
  /**
   * Consume the customer-seen stream (SPEC §3). On in the service process; tests that exercise the
   * HTTP platform leave it off so no background loop outlives them.
   */
  consumeCustomerEvents?: boolean;
  /**
   * Complete provider calls whose callbacks stopped, after the grace period (docs/telephony.md).
   * On in the service process; tests call the sweep themselves.
   */
  sweepProviderCalls?: boolean;
}

const SHUTDOWN_TIMEOUT_MS = 10_000;
/** A probe must answer quickly even when a store hangs: one check waits at most this long. */
const READINESS_TIMEOUT_MS = 1_000;

/** The composition root (STYLE §3): config → stores → services → app. */
export async function createManagementApp(
  config: ManagementConfig,
  logger: Logger,
  options: ManagementAppOptions = {},
): Promise<ManagementApp> {
  const clock = options.clock ?? (() => new Date());
  const trustedProxies = parseAddressList('TRUST_PROXY', config.trustProxy);
  const metricsAllowFrom = parseAddressList('METRICS_ALLOW_IP', config.metricsAllowIp);
  const dataSource = createDataSource(config.databaseUrl);
  await dataSource.initialize();
  // The read replica (SPEC §10) when DATABASE_READ_URL names one; CDR statistics pages read there.
  const readDataSource =
    config.databaseReadUrl === undefined ? undefined : createReadDataSource(config.databaseReadUrl);
  try {
    await readDataSource?.initialize();
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  const redis = createRedisClient({
    url: config.redis.url,
    clusterNodes: config.redis.clusterNodes,
    connectTimeoutMs: config.redis.connectTimeoutMs,
    commandTimeoutMs: config.redis.commandTimeoutMs,
    maxReconnectDelayMs: 5_000,
    // A request while Redis is down fails at once with 503 instead of waiting for a reconnect.
    queueWhileDisconnected: false,
    name: 'management-http',
    logger,
  });
  const redisReady = await becomesReady(redis, config.redis.connectTimeoutMs);

  const projections = createProjections({
    dataSource,
    redis,
    keyPrefix: config.redis.keyPrefix,
    logger,
    clock,
  });
  // Start from a Redis that matches the database, whatever happened while no writer ran (SPEC §1).
  // A failure is logged, not fatal: the partner API works without it, and a rebuild repairs Redis.
  const rebuildProjections = () =>
    projections.rebuild().then(
      (counts) => logger.info(counts, 'Redis projections rebuilt'),
      (error: unknown) =>
        logger.error({ err: error }, 'Redis projections rebuild failed; run projections:rebuild'),
    );
  if (redisReady) await rebuildProjections();
  else {
    // A pod restarted during a Redis outage must not crash-loop (docs/operations.md, Redis
    // outages): it serves /health, answers /ready and Redis-bound requests with 503, and catches
    // up when the connection comes.
    logger.warn('Redis is unreachable: starting without it; /ready answers 503 until it connects');
    redis.once('ready', () => void rebuildProjections());
  }
  const stores = createManagementStores(dataSource, { client: redis, keyPrefix: config.redis.keyPrefix });
  const services = createManagementServices(stores, config, {
    ...projectionListeners(projections),
    customerChanges: [
      new RedisSentCustomersRecord(
        redis,
        config.redis.keyPrefix,
        new TypeormPartnersStore(dataSource.manager),
        logger,
      ),
    ],
  });
  const cdrs = createCdrFeature(dataSource, redis, config.redis.keyPrefix, readDataSource);
  const metrics = new ManagementMetrics({
    partners: stores.partners,
    pools: new NumberPoolsService(stores.numbers, new RedisPoolBindingsReader(redis, config.redis.keyPrefix)),
    outbox: new TypeormOutboxStatusCounts(dataSource.manager),
    clock,
    logger,
  });
  const customerEvents = options.consumeCustomerEvents
    ? startCustomerEventsConsumer({
        config,
        sightings: stores.customerSightings,
        partners: stores.partners,
        logger,
        metrics,
      })
    : undefined;
  const ingestion = countedIngestion(cdrs.ingestion, metrics);
  const twilio = createTwilioTelephony({
    config,
    dataSource,
    redis,
    ingestion,
    greetings: services.greetings,
    logger,
    clock,
  });
  const stopSweep = options.sweepProviderCalls ? twilio.startSweep() : undefined;
  const authenticator = new DigestAuthenticator(
    config.digest.realm,
    new NonceIssuer(nonceSecret(config, logger), config.digest.nonceTtlSeconds * 1000),
    new RedisNonceCounter(redis, config.redis.keyPrefix),
    services.partners,
  );
  const app = createHttpApp({
    logger,
    routes: [
      ...pingRoutes(),
      ...createManagementRoutes(services),
      ...cdrs.routes,
      ...(options.extraRoutes ?? []),
    ],
    authenticator,
    trustedProxies,
    readiness: readinessChecks(dataSource, redis, readDataSource),
    metrics: {
      endpoint: metricsEndpoint({
        registry: metrics.registry,
        allowFrom: metricsAllowFrom,
        trustedProxies,
        logger,
      }),
      observe: (method, route, status) => metrics.httpRequest(method, route, status),
    },
    clock,
    telephony: {
      path: TELEPHONY_BASE_PATH,
      // The provider's signed callbacks first; everything else under /telephony takes the bearer token.
      router: express
        .Router()
        .use(twilio.router)
        .use(
          telephonyRoutes({
            greetings: services.greetings,
            cdrs: ingestion,
            token: config.telephonyToken,
            log: logger,
            clock,
          }),
        ),
    },
  });
  const front = createHttpsFront(
    await loadTlsMaterial({ ...config.tls, dataDir: config.dataDir }, logger, clock()),
    app,
    config.http,
  );

  return {
    front,
    metrics,
    twilioCalls: twilio.calls,
    listen: () => front.listen(config.port, config.host),
    close: async () => {
      stopSweep?.();
      await front.close(SHUTDOWN_TIMEOUT_MS);
      await customerEvents?.stop();
      await redis.quit().catch(() => redis.disconnect());
      await readDataSource?.destroy();
      await dataSource.destroy();
    },
  };
}

function parseAddressList(variable: string, entries: string[]): AddressList {
  try {
    return AddressList.parse(entries);
  } catch (error) {
    throw new Error(`Invalid configuration: ${variable}: ${(error as Error).message}`);
  }
}

function nonceSecret(config: ManagementConfig, logger: Logger): string {
  if (config.digest.nonceSecret !== '') return config.digest.nonceSecret;
  logger.warn(
    "DIGEST_NONCE_SECRET is unset: using a random key for this process; replicas will not accept each other's nonces and a restart invalidates them",
  );
  return randomBytes(32).toString('hex');
}

function readinessChecks(
  dataSource: DataSource,
  redis: RedisConnection,
  readDataSource: DataSource | undefined,
): ReadinessCheck[] {
  const answers = (source: DataSource) => () => withTimeout(source.query('SELECT 1').then(() => true));
  return [
    { name: 'postgres', check: answers(dataSource) },
    { name: 'redis', check: () => withTimeout(pingRedis(redis)) },
    // Only when configured: statistics pages cannot be served while the replica is unreachable.
    ...(readDataSource === undefined ? [] : [{ name: 'postgres_replica', check: answers(readDataSource) }]),
  ];
}

async function withTimeout(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the connection is ready within `timeoutMs`; it keeps reconnecting either way. */
function becomesReady(redis: RedisConnection, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
