import { CallerHistoryStore } from '@trackline/contracts';
import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import {
  createRedisClient,
  loadApiDocument,
  metricsHandler,
  requestContext,
  StoreOutages,
  type Logger,
  type RedisConnection,
} from '@trackline/platform';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ReplacementConfig } from './config/replacement-config';
import { dynamicNumbersRoutes, isDynamicNumbersRequest } from './dynamic-numbers/dynamic-numbers.routes';
import { DynamicNumbersService } from './dynamic-numbers/dynamic-numbers.service';
import {
  CachedTrackingNumbersStore,
  RedisTrackingNumbersStore,
} from './dynamic-numbers/tracking-numbers.store';
import { API_REFERENCE_GET_PATHS, apiReferenceRoutes } from './api-reference/api-reference.routes';
import { healthRoutes } from './health/health.routes';
import { toHttpError, unreachableStore } from './http/error-mapper';
import { markRequestStart, sendJson, serverTiming } from './http/json-response';
import { mountRoutes } from './http/mount-routes';
import { requestIdSource } from './http/request-id';
import { ReplacementMetrics } from './metrics/replacement-metrics';
import { CachedPartnerConfigStore } from './partners/partner-config.cache';
import { RedisPartnerConfigStore } from './partners/partner-config.store';
import { CachedProjectionGenerationStore } from './partners/projection-generation.cache';
import { RedisProjectionGenerationStore } from './partners/projection-generation.store';
import { RedisNumberPoolStore } from './pools/number-pool.store';
import { PoolTelemetry } from './pools/pool-telemetry';
import { SentCustomerMemory } from './pools/sent-customers.memory';
import { CallRoutingService } from './telephony/call-routing.service';
import { RedisCallRoutingStore } from './telephony/call-routing.store';
import { telephonyRoutes } from './telephony/telephony.routes';
import { RedisDialOutcomeStore } from './telephony/twilio/dial-outcome.store';
import { TWILIO_PATHS } from './telephony/twilio/twilio-twiml';
import { twilioVoiceRoutes } from './telephony/twilio/twilio-voice.routes';

export interface ReplacementAppOptions {
  config: ReplacementConfig;
  logger: Logger;
  /** A ready-made connection (tests, the cluster suite); otherwise one is made from config. */
  redis?: RedisConnection;
  /** Epoch ms the pool and routing rules run on; tests move it. */
  clock?: () => number;
  newSessionId?: () => string;
}

export interface ReplacementApp {
  /**
   * The server's request listener: POST / and POST /dynamic-numbers on plain node:http, everything
   * else (telephony, health, 404/405) through Express. Give this to http.createServer.
   */
  handler: RequestListener;
  redis: RedisConnection;
  /** What `GET /metrics` exposes. */
  metrics: ReplacementMetrics;
  /** Writes the pool telemetry counted so far now instead of within the second (tests, shutdown). */
  flushPoolTelemetry(): Promise<void>;
  /** Writes the last pool telemetry, then closes the Redis connection when this app made it. */
  close(): Promise<void>;
}

/** The composition root: config → Redis → stores → services → routes (docs/architecture.md, Composition). */
export function createReplacementApp(options: ReplacementAppOptions): ReplacementApp {
  const { config, logger } = options;
  const ownsRedis = options.redis === undefined;
  const redis =
    options.redis ??
    createRedisClient({
      ...config.redis,
      // Fail at once while disconnected: the partner falls back to its own number instead of waiting.
      queueWhileDisconnected: false,
      name: 'replacement',
      logger,
    });
  const clock = options.clock ?? Date.now;
  const prefix = config.redis.keyPrefix;
  const metrics = new ReplacementMetrics();
  // A Redis outage refuses every request: told in two lines, counted in trackline_redis_errors_total.
  const outages = new StoreOutages<'redis'>({
    log: logger,
    storeOf: unreachableStore,
    probes: { redis: () => redis.ping().then(() => true) },
  });

  const partners = new CachedPartnerConfigStore(
    new RedisPartnerConfigStore(redis, prefix),
    config.partnerConfigCacheMs,
  );
  // Read only after a partner or number lookup missed, and cached as long as partner settings.
  const generations = new CachedProjectionGenerationStore(
    new RedisProjectionGenerationStore(redis, prefix),
    config.partnerConfigCacheMs,
  );
  const poolTelemetry = new PoolTelemetry(redis, prefix, (error) =>
    logger.warn({ err: error }, 'pool telemetry not written; the counts are kept for the next write'),
  );
  poolTelemetry.start();
  const dynamicNumbers = new DynamicNumbersService({
    partners,
    generations,
    pools: new RedisNumberPoolStore(redis, prefix, {
      sentCustomers: new SentCustomerMemory(config.partnerConfigCacheMs),
      telemetry: poolTelemetry,
    }),
    newSessionId: options.newSessionId ?? randomUUID,
    sessions: metrics,
    trackingNumbers: new CachedTrackingNumbersStore(
      new RedisTrackingNumbersStore(redis, prefix),
      config.partnerConfigCacheMs,
    ),
  });
  const callRouting = new CallRoutingService(partners, new RedisCallRoutingStore(redis, prefix), generations);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    markRequestStart(res);
    next();
  });
  app.use(requestContext(logger));
  app.use(healthRoutes(redis));
  app.use(apiReferenceRoutes(loadApiDocument('replacement.yaml'), config.twilio.publicUrl));
  // No authentication and no partner names in it; keep it off the public route (docs/operations.md).
  app.get(
    '/metrics',
    metricsHandler(metrics.registry, logger, (res) => ({ 'Server-Timing': serverTiming(res) })),
  );
  // The switch's endpoint (bearer token) and the provider's webhooks (signature), one registration.
  mountRoutes(
    app,
    [
      ...telephonyRoutes({
        service: callRouting,
        telephonyToken: config.telephonyToken,
        clock,
        storeDeadlineMs: config.storeDeadlineMs,
        metrics,
      }),
      ...twilioVoiceRoutes({
        routing: callRouting,
        partners,
        dialOutcomes: new RedisDialOutcomeStore(redis, prefix),
        callerHistory: new CallerHistoryStore(redis, prefix),
        config: config.twilio,
        clock,
        storeDeadlineMs: config.storeDeadlineMs,
        metrics,
      }),
    ],
    { metrics, outages },
  );
  const postOnly = new Set<string>([
    '/',
    '/dynamic-numbers',
    '/telephony/route',
    ...Object.values(TWILIO_PATHS),
  ]);
  app.use((req: Request, res: Response) => {
    const known = postOnly.has(req.path);
    if (known) sendJson(res, 405, { success: false, error: 'Method not allowed' }, { Allow: 'POST' });
    else if (req.path === '/metrics' || API_REFERENCE_GET_PATHS.includes(req.path))
      sendJson(res, 405, { success: false, error: 'Method not allowed' }, { Allow: 'GET' });
    else sendJson(res, 404, { success: false, error: 'Not found' });
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { status, message } = toHttpError(error, req.log ?? logger, undefined, outages);
    sendJson(res, status, { success: false, error: message });
  });

  const replacementRoutes = dynamicNumbersRoutes({
    service: dynamicNumbers,
    clock,
    storeDeadlineMs: config.storeDeadlineMs,
    logger,
    requestId: requestIdSource(),
    metrics,
    outages,
  });
  // The replacement endpoint skips Express: its router and per-request logging context cost the
  // hot path about half its throughput (docs/benchmarks.md).
  const handler: RequestListener = (req, res) => {
    if (isDynamicNumbersRequest(req)) replacementRoutes(req, res);
    else app(req, res);
  };

  return {
    handler,
    redis,
    metrics,
    flushPoolTelemetry: () => poolTelemetry.flush(),
    close: async () => {
      outages.close();
      await poolTelemetry.close();
      if (ownsRedis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
