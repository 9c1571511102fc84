import { DataSource } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { preparingPostgresDriver } from './prepared-statements';
import { CreatePartners1795262700000 } from './migrations/1795262700000-CreatePartners';
import { CreateCustomers1795262800000 } from './migrations/1795262800000-CreateCustomers';
import { CreatePricingModels1795263000000 } from './migrations/1795263000000-CreatePricingModels';
import { CreateVoicemailGreetings1795263100000 } from './migrations/1795263100000-CreateVoicemailGreetings';
import { CreateCampaigns1795263200000 } from './migrations/1795263200000-CreateCampaigns';
import { CreateNumbersAndSources1795263300000 } from './migrations/1795263300000-CreateNumbersAndSources';
import { CreateCdrs1795263500000 } from './migrations/1795263500000-CreateCdrs';
import { CreateNotificationOutbox1795263600000 } from './migrations/1795263600000-CreateNotificationOutbox';
import { CreateCdrDayCounts1795263700000 } from './migrations/1795263700000-CreateCdrDayCounts';
import { CreateWebhooks1795462589143 } from './migrations/1795462589143-CreateWebhooks';
import { CreateCdrReportBuckets1795462611024 } from './migrations/1795462611024-CreateCdrReportBuckets';
import { OutboxMonthlyReports1795462932984 } from './migrations/1795462932984-OutboxMonthlyReports';
import { CreateTwilioCalls1795462925506 } from './migrations/1795462925506-CreateTwilioCalls';
import { AddPartnerCallSettings1795463430471 } from './migrations/1795463430471-AddPartnerCallSettings';
import { RowLevelCdrRollupInserts1795470000000 } from './migrations/1795470000000-RowLevelCdrRollupInserts';
import { CanonicalCallerNumbers1795480000010 } from './migrations/1795480000010-CanonicalCallerNumbers';
import { CallIdsPerPartner1795490000001 } from './migrations/1795490000001-CallIdsPerPartner';
import { PartitionCdrsByMonth1795462563963 } from './migrations/1795462563963-PartitionCdrsByMonth';
import { AddDataLifecycle1795462887287 } from './migrations/1795462887287-AddDataLifecycle';
import { AddCdrAttributionConfidence1795500000001 } from './migrations/1795500000001-AddCdrAttributionConfidence';
import { PartnerRateLimit1795520000001 } from './migrations/1795520000001-PartnerRateLimit';
import { PoolTelemetry1795530000001 } from './migrations/1795530000001-PoolTelemetry';
import { Conversions1795550000001 } from './migrations/1795550000001-Conversions';
import { Spam1795540000001 } from './migrations/1795540000001-Spam';
import { SourceSpamPolicy1795560000001 } from './migrations/1795560000001-SourceSpamPolicy';
import { CdrCallIdsByRecord1795570000001 } from './migrations/1795570000001-CdrCallIdsByRecord';
import { CdrOutcomeIndex1795570000002 } from './migrations/1795570000002-CdrOutcomeIndex';
import { WebhookDeliveryRecordStart1795580000001 } from './migrations/1795580000001-WebhookDeliveryRecordStart';
import { ConversionRecordStart1795580000002 } from './migrations/1795580000002-ConversionRecordStart';
import { LaneIndexesInClaimOrder1795590000001 } from './migrations/1795590000001-LaneIndexesInClaimOrder';
import { CdrChanges1795600000001 } from './migrations/1795600000001-CdrChanges';
import { WebhookOperations1795600000002 } from './migrations/1795600000002-WebhookOperations';
import { CallIntelligence1795620000001 } from './migrations/1795620000001-CallIntelligence';
import { PoolsThatSizeThemselves1797000000200 } from './migrations/1797000000200-PoolsThatSizeThemselves';
import { ConversationRecordingReference1795630000001 } from './migrations/1795630000001-ConversationRecordingReference';
import { CreateCarrierNumbers1797000000100 } from './migrations/1797000000100-CreateCarrierNumbers';

/** An entity class; each feature lists its own (e.g. cdrs/cdrs.entities.ts), composition all of them. */
export type EntityClass = new (...args: never[]) => object;

// An explicit list rather than a glob: a build cannot silently lose a migration, and the same list
// works from TypeScript sources (tests) and compiled JavaScript (dist).
export const MIGRATIONS = [
  CreatePartners1795262700000,
  CreateCustomers1795262800000,
  CreatePricingModels1795263000000,
  CreateVoicemailGreetings1795263100000,
  CreateCampaigns1795263200000,
  CreateNumbersAndSources1795263300000,
  CreateCdrs1795263500000,
  CreateNotificationOutbox1795263600000,
  CreateCdrDayCounts1795263700000,
  PartitionCdrsByMonth1795462563963,
  CreateWebhooks1795462589143,
  CreateCdrReportBuckets1795462611024,
  AddDataLifecycle1795462887287,
  CreateTwilioCalls1795462925506,
  OutboxMonthlyReports1795462932984,
  AddPartnerCallSettings1795463430471,
  RowLevelCdrRollupInserts1795470000000,
  CanonicalCallerNumbers1795480000010,
  CallIdsPerPartner1795490000001,
  AddCdrAttributionConfidence1795500000001,
  PartnerRateLimit1795520000001,
  PoolTelemetry1795530000001,
  Conversions1795550000001,
  Spam1795540000001,
  SourceSpamPolicy1795560000001,
  CdrCallIdsByRecord1795570000001,
  CdrOutcomeIndex1795570000002,
  WebhookDeliveryRecordStart1795580000001,
  ConversionRecordStart1795580000002,
  LaneIndexesInClaimOrder1795590000001,
  CdrChanges1795600000001,
  WebhookOperations1795600000002,
  CallIntelligence1795620000001,
  ConversationRecordingReference1795630000001,
  CreateCarrierNumbers1797000000100,
  PoolsThatSizeThemselves1797000000200,
];

/** A connection pool's name (`application_name`, seen in pg_stat_activity) and size. */
export interface PoolOptions {
  applicationName: string;
  /** Unset: node-postgres' default (10). */
  size?: number;
  /** Repeated statements as named prepared statements (db/prepared-statements.ts); unset: off. */
  preparedStatements?: boolean;
  /**
   * Commits answer before their WAL reaches the disk (`synchronous_commit = off`): only for pools
   * whose writes a crash may lose without harm, such as an outbox worker's leases and marks
   * (docs/operations.md, Outbox workers' commits). Unset: every commit waits for its flush.
   */
  asynchronousCommit?: boolean;
  /**
   * Prepared statements always run on their generic plan (`plan_cache_mode = force_generic_plan`):
   * only for pools whose statements look rows up by key, so that no parameter value can make
   * another plan better (docs/operations.md, Call records' pool). Unset: Postgres chooses.
   */
  genericPlans?: boolean;
}

/** Not yet connected; call `initialize()`. The schema changes only through migrations. */
export function createDataSource(
  databaseUrl: string,
  entities: readonly EntityClass[],
  pool: PoolOptions = { applicationName: 'trackline-management' },
): DataSource {
  return new DataSource({ ...connectionOptions(databaseUrl, entities, pool), migrations: MIGRATIONS });
}

/**
 * A read replica: the same entities, no migrations (a replica follows the primary's schema and
 * refuses writes). Not yet connected; call `initialize()`.
 */
export function createReadDataSource(
  databaseUrl: string,
  entities: readonly EntityClass[],
  pool: PoolOptions = { applicationName: 'trackline-management-read' },
): DataSource {
  return new DataSource({ ...connectionOptions(databaseUrl, entities, pool), migrations: [] });
}

/** The pool's session settings, sent with each connection's start-up (no statement of their own). */
function sessionSettings(pool: PoolOptions): { options?: string } {
  const settings = [
    ...(pool.asynchronousCommit === true ? ['-c synchronous_commit=off'] : []),
    ...(pool.genericPlans === true ? ['-c plan_cache_mode=force_generic_plan'] : []),
  ];
  return settings.length === 0 ? {} : { options: settings.join(' ') };
}

function connectionOptions(
  databaseUrl: string,
  entities: readonly EntityClass[],
  pool: PoolOptions,
): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: [...entities],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // gen_random_uuid() is built into Postgres ≥ 13; nothing needs installing (or superuser rights).
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    applicationName: pool.applicationName,
    extra: {
      ...(pool.size === undefined ? {} : { max: pool.size }),
      ...sessionSettings(pool),
    },
    ...(pool.preparedStatements === true ? { driver: preparingPostgresDriver() } : {}),
  };
}
