import { pingRedis, type Logger, type RedisConnection } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import {
  createApiRedis,
  openIngestionDatabase,
  openMainDatabase,
  openReadDatabase,
} from './composition/management-connections';
import { createManagementApi, createManagementCore } from './composition/management-root';
import { PoolAutoscalingJob } from './pool-autoscaling/pool-autoscaling.job';
import type { ManagementConfig } from './config/management-config';
import type { ReadinessCheck } from './http/health.routes';
import type { AnyRouteDefinition, RouteDefinition } from './http/route-definition';
import { createHttpApp } from './http/http-app';
import { createHttpsFront, type HttpsFront } from './http/https-front';
import { loadTlsMaterial } from './http/tls-certificate';
import type { ManagementMetrics } from './metrics/management-metrics';
import { watchProjectionGeneration } from './projections/watch-projection-generation';
import { metricsEndpoint } from './metrics/metrics.routes';
import { startCustomerEventsConsumer } from './composition/start-customer-events-consumer';
import type { TwilioCallsService } from './telephony/twilio/twilio-calls.service';
import type { OutboxBell } from './db/outbox-bell';

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
  /** Every route definition the app serves besides the probes (a test holds them to the document). */
  routes: readonly AnyRouteDefinition[];
}

export interface ManagementAppOptions {
  /** The clock requests read; tests move it to expire nonces. */
  clock?: () => Date;
  /** More operations behind the same platform; the platform's tests mount probe routes here. */
  extraRoutes?: RouteDefinition[];
  /**
   * Consume the customer-seen stream (docs/redis-keys.md, Customer-seen stream). On in the service process; tests that exercise the
   * HTTP platform leave it off so no background loop outlives them.
   */
  consumeCustomerEvents?: boolean;
  /**
   * Complete provider calls whose callbacks stopped, after the grace period (docs/telephony.md).
   * On in the service process; tests call the sweep themselves.
   */
  sweepProviderCalls?: boolean;
  /**
   * Evaluate autoscaling pools on their schedule (docs/pool-sizing.md, Autoscaling). On in the
   * service process; tests evaluate pools themselves.
   */
  autoscalePools?: boolean;
  /**
   * Finish carrier purchases a crash left unfinished, once at start (docs/carrier-numbers.md,
   * Idempotent buying). On in the service process; tests reconcile through the CLI.
   */
  reconcileCarrierPurchases?: boolean;
  /**
   * Rung after a call's transaction queued webhooks, notifications or conversions, so this
   * process's workers send them at once (db/outbox-bell.ts). Left out, they wait for their poll.
   */
  outboxBell?: OutboxBell;
}

/**
 * The HTTP app on the composition root (docs/architecture.md, Composition): connections, then the
 * core and the API objects, then the routes and the HTTPS front.
 */
export async function createManagementApp(
  config: ManagementConfig,
  logger: Logger,
  options: ManagementAppOptions = {},
): Promise<ManagementApp> {
  const clock = options.clock ?? (() => new Date());
  const dataSource = await openMainDatabase(config);
  // The read replica (docs/configuration.md, Stores) when DATABASE_READ_URL names one; CDR
  // statistics pages read there.
  let readDataSource: DataSource | undefined;
  let ingestionDataSource: DataSource;
  try {
    readDataSource = await openReadDatabase(config);
    ingestionDataSource = await openIngestionDatabase(config);
  } catch (error) {
    await readDataSource?.destroy();
    await dataSource.destroy();
    throw error;
  }
  const redis = createApiRedis(config, logger);
  const redisReady = await becomesReady(redis, config.redis.connectTimeoutMs);

  const core = createManagementCore({ config, dataSource, redis, logger, clock });
  const { stores, projectionHealer } = core;
  // Start from a Redis that matches the database, whatever happened while no writer ran
  // (docs/redis-keys.md, Writers).
  // A failure is logged, not fatal: the partner API works without it, and a rebuild repairs Redis.
  const rebuildProjections = () =>
    projectionHealer
      .rebuild('start')
      .catch((error: unknown) =>
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
  // From now on, a Redis that comes back empty (or loses its data in place) gets its projections
  // back without anyone running a command (docs/operations.md, Redis outages).
  const stopWatchingProjections = watchProjectionGeneration(
    projectionHealer,
    redis,
    config.projections.checkIntervalMs,
  );
  const { metrics, twilio, routes, authenticator, rateLimiter, outages } = createManagementApi(core, {
    config,
    dataSource,
    readDataSource,
    ingestionDataSource,
    redis,
    logger,
    clock,
    outboxBell: options.outboxBell,
  });
  const customerEvents = options.consumeCustomerEvents
    ? startCustomerEventsConsumer({
        config,
        sightings: stores.customerSightings,
        partners: stores.partners,
        logger,
        metrics,
        outages,
      })
    : undefined;
  if (options.sweepProviderCalls) twilio.sweep.start();
  const poolAutoscaling = core.services.poolAutoscaling;
  const autoscalingJob =
    options.autoscalePools && poolAutoscaling !== undefined
      ? new PoolAutoscalingJob(poolAutoscaling.autoscaler, config.poolAutoscaling, clock, logger)
      : undefined;
  autoscalingJob?.start();
  // In the background: a carrier that does not answer must not hold the start up. Each partner's
  // next buy reconciles too, so a failure here only waits for that.
  const reconciling = options.reconcileCarrierPurchases
    ? core.services.carrierNumbers
        ?.reconcileAll()
        .then((results) => {
          for (const [partner, result] of results)
            logger.info({ partner, ...result }, 'unfinished carrier purchases reconciled');
        })
        .catch((error: unknown) =>
          logger.error({ err: error }, 'carrier purchases not reconciled; run carrier:reconcile'),
        )
    : undefined;
  const app = createHttpApp({
    logger,
    routes: [...routes, ...(options.extraRoutes ?? [])],
    authenticator,
    rateLimit: {
      limiter: rateLimiter,
      defaultPerMinute: config.rateLimitPerMinute,
      clock,
      count: (result) => metrics.rateLimit(result),
    },
    trustedProxies: config.trustProxy,
    outages,
    readiness: readinessChecks(dataSource, redis, readDataSource, config.readinessTimeoutMs),
    metrics: {
      endpoint: metricsEndpoint({
        registry: metrics.registry,
        allowFrom: config.metricsAllowIp,
        trustedProxies: config.trustProxy,
        logger,
      }),
      observe: (method, route, status) => metrics.httpRequest(method, route, status),
    },
    clock,
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
    routes,
    listen: () => front.listen(config.port, config.host),
    close: async () => {
      stopWatchingProjections();
      await reconciling;
      outages.close();
      await front.close(config.shutdownTimeoutMs);
      await customerEvents?.stop();
      await autoscalingJob?.stop();
      // Stopped only if started: the worker's stop waits for a round in flight, none when idle.
      await twilio.sweep.stop();
      await redis.quit().catch(() => redis.disconnect());
      await readDataSource?.destroy();
      await ingestionDataSource.destroy();
      await dataSource.destroy();
    },
  };
}

/** A probe must answer quickly even when a store hangs: one check waits at most `timeoutMs`. */
function readinessChecks(
  dataSource: DataSource,
  redis: RedisConnection,
  readDataSource: DataSource | undefined,
  timeoutMs: number,
): ReadinessCheck[] {
  const answers = (source: DataSource) => () =>
    withTimeout(
      source.query('SELECT 1').then(() => true),
      timeoutMs,
    );
  return [
    { name: 'postgres', check: answers(dataSource) },
    { name: 'redis', check: () => withTimeout(pingRedis(redis), timeoutMs) },
    // Only when configured: statistics pages cannot be served while the replica is unreachable.
    ...(readDataSource === undefined ? [] : [{ name: 'postgres_replica', check: answers(readDataSource) }]),
  ];
}

async function withTimeout(check: Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
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
