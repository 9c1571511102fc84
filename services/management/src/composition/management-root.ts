import { TypeormTranscriptionJobsStore } from '../call-intelligence/transcription-jobs.store';
import { composeCallRecordings } from './call-recordings-composition';
import { randomBytes } from 'node:crypto';
import { loadApiDocument, StoreOutages, type Logger, type RedisConnection } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import { apiReferenceRoutes } from '../api-reference/api-reference.routes';
import { withPathForms } from '../api-reference/path-forms';
import { composeCdrFeature } from './cdrs-composition';
import type { CdrFeature } from '../cdrs/create-cdrs';
import { composeSpamFeature } from './spam-composition';
import type { ManagementConfig } from '../config/management-config';
import { RedisSentCustomersRecord } from '../customer-events/sent-customers.record';
import { ManagementMetrics, type ManagementMetricsDeps } from '../metrics/management-metrics';
import { TypeormOutboxStatusCounts } from '../notifications/outbox-status-counts.store';
import { createProjectionHealer, createProjections, projectionListeners } from './projections-composition';
import type { ProjectionHealer } from '../projections/projection-healer';
import type { ProjectionsService } from '../projections/projections.service';
import { RedisCallContextReader } from '../telephony/twilio/call-context.reader';
import { createTwilioTelephony, type TwilioTelephony } from '../telephony/twilio/create-twilio-telephony';
import { TypeormTwilioCallsStore } from '../telephony/twilio/twilio-calls.store';
import { DigestAuthenticator } from '../http/digest/digest-authenticator';
import { NonceIssuer } from '../http/digest/digest-nonce';
import { RedisNonceCounter } from '../http/digest/nonce-counter';
import { RedisRateLimiter, type RateLimiter } from '../http/rate-limit/rate-limiter';
import type { AnyRouteDefinition } from '../http/route-definition';
import { unreachableStore, type ManagementStore } from '../http/error-handler';
import { pingRoutes } from '../ping/ping.routes';
import { telephonyRoutes } from '../telephony/telephony.routes';
import {
  createManagementRoutes,
  createManagementServices,
  type ManagementServices,
} from './management-services';
import { createManagementStores, type ManagementStores } from './management-stores';
import { storesOn } from './stores-on-manager';
import type { OutboxBell } from '../db/outbox-bell';

// Composition root, steps 2 and 3 of config → connections → stores → services → app
// (docs/architecture.md, Composition). The HTTP app and the CLI build their objects here, once.

export interface ManagementCoreDeps {
  config: ManagementConfig;
  /** The main pool (composition/management-connections.ts). */
  dataSource: DataSource;
  redis: RedisConnection;
  logger: Logger;
  clock?: () => Date;
}

/** What the HTTP app and every CLI command share: the stores, the Redis projections, the services. */
export interface ManagementCore {
  stores: ManagementStores;
  /** The publisher every service calls after its commit. */
  projections: ProjectionsService;
  /** The one full rebuild: at start, by `projections:rebuild`, and when Redis lost the projections. */
  projectionHealer: ProjectionHealer;
  services: ManagementServices;
}

export function createManagementCore(deps: ManagementCoreDeps): ManagementCore {
  const { config, dataSource, redis, logger } = deps;
  const keyPrefix = config.redis.keyPrefix;
  const projections = createProjections({ dataSource, redis, keyPrefix, logger, clock: deps.clock });
  const projectionHealer = createProjectionHealer(
    projections,
    { redis, keyPrefix, logger, clock: deps.clock },
    { rebuildLockMs: config.projections.rebuildLockMs },
  );
  const stores = createManagementStores(dataSource, { client: redis, keyPrefix });
  const services = createManagementServices(
    stores,
    config,
    {
      ...projectionListeners(projections),
      customerChanges: [
        new RedisSentCustomersRecord(redis, keyPrefix, storesOn(dataSource.manager).partners, logger),
      ],
    },
    logger,
  );
  return { stores, projections, projectionHealer, services };
}

export interface ManagementApiDeps extends ManagementCoreDeps {
  /** The read replica's pool, when configured: CDR statistics pages read there. */
  readDataSource?: DataSource;
  /** The call records' pool (composition/management-connections.ts); the main pool when not given. */
  ingestionDataSource?: DataSource;
  clock: () => Date;
  /** Rung after a call's transaction queued outbox rows (db/outbox-bell.ts). */
  outboxBell?: OutboxBell;
}

/**
 * What only the service process adds to the core: the CDR feature, metrics, provider calls, and
 * the HTTP API's routes and authenticator.
 */
export interface ManagementApi {
  cdrs: CdrFeature;
  /** What `GET /metrics` exposes. */
  metrics: ManagementMetrics;
  twilio: TwilioTelephony;
  /** Every route of the API: partner resources, CDR statistics, the switch's and the provider's. */
  routes: AnyRouteDefinition[];
  /** Digest authentication of partner routes, its nonce counts in Redis. */
  authenticator: DigestAuthenticator;
  /** The per-partner request budgets in Redis (each partner's limit comes with its authentication). */
  rateLimiter: RateLimiter;
  /** Store outages told once each, refusals counted (docs/operations.md, Store outages); closed with the app. */
  outages: StoreOutages<ManagementStore>;
}

export function createManagementApi(core: ManagementCore, deps: ManagementApiDeps): ManagementApi {
  const { config, dataSource, redis, logger, clock } = deps;
  const metrics = new ManagementMetrics({
    partners: core.stores.partners,
    // Present: the core's stores were given Redis. GET /number_pools and the gauges share it.
    pools: core.services.numberPools!,
    outbox: new TypeormOutboxStatusCounts(dataSource.manager),
    transcriptionQueue: new TypeormTranscriptionJobsStore(dataSource.manager),
    backlogs: outboxBacklogs(storesOn(dataSource.manager)),
    clock,
    logger,
  });
  core.services.poolAutoscaling?.autoscaler.observe(metrics);
  const outages = new StoreOutages<ManagementStore>({
    log: logger,
    storeOf: unreachableStore,
    probes: {
      postgres: () => dataSource.query('SELECT 1').then(() => true),
      // The API connection fails fast while Redis is down, so a PING is the probe.
      redis: () => redis.ping().then(() => true),
    },
    onRefused: (store, work) => {
      if (work === 'request') metrics.storeRefused(store);
    },
  });
  const cdrs = composeCdrFeature({
    dataSource,
    readDataSource: deps.readDataSource,
    ingestionDataSource: deps.ingestionDataSource,
    redis,
    keyPrefix: config.redis.keyPrefix,
    telephonyToken: config.telephonyToken,
    metrics,
    outboxBell: deps.outboxBell,
    outages,
  });
  const callRecordings = composeCallRecordings(dataSource.manager);
  const twilio = createTwilioTelephony({
    config,
    store: new TypeormTwilioCallsStore(dataSource.manager),
    contexts: new RedisCallContextReader(redis, config.redis.keyPrefix),
    ingestion: cdrs.ingestion,
    conversations: callRecordings.store,
    greetings: core.services.greetings,
    logger,
    clock,
  });
  const routes = [
    ...apiReferenceRoutes(
      loadApiDocument('management.yaml', { served: withPathForms }),
      config.twilio.publicUrl,
    ),
    ...pingRoutes(),
    ...createManagementRoutes(core.services),
    ...cdrs.routes,
    ...callRecordings.routes,
    ...composeSpamFeature({ dataSource, redis, keyPrefix: config.redis.keyPrefix }).routes,
    // The switch's endpoints (bearer token) and the provider's callbacks (signature).
    ...cdrs.switchRoutes,
    ...telephonyRoutes({ greetings: core.services.greetings, token: config.telephonyToken }),
    ...twilio.routes,
  ];
  const authenticator = new DigestAuthenticator(
    config.digest.realm,
    new NonceIssuer(nonceSecret(config, logger), config.digest.nonceTtlSeconds * 1000),
    new RedisNonceCounter(redis, config.redis.keyPrefix),
    core.services.partners,
  );
  const rateLimiter = new RedisRateLimiter(redis, config.redis.keyPrefix);
  return { cdrs, metrics, twilio, routes, authenticator, rateLimiter, outages };
}

/** The three outboxes' stores, each the owner of its table, read for the backlog gauges. */
function outboxBacklogs(stores: ReturnType<typeof storesOn>): ManagementMetricsDeps['backlogs'] {
  return {
    notifications: stores.outbox,
    webhooks: stores.webhookDeliveries,
    conversions: stores.conversionOutbox,
  };
}

function nonceSecret(config: ManagementConfig, logger: Logger): string {
  if (config.digest.nonceSecret !== '') return config.digest.nonceSecret;
  logger.warn(
    "DIGEST_NONCE_SECRET is unset: using a random key for this process; replicas will not accept each other's nonces and a restart invalidates them",
  );
  return randomBytes(32).toString('hex');
}
