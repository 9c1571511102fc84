import { CallerHistoryStore, type CallerHistoryRedis } from '@trackline/contracts';
import type { DataSource } from 'typeorm';
import { TypeormCustomersStore } from '../customers/customers.store';
import { typeormUnitOfWork } from '../db/unit-of-work';
import type { RouteDefinition, SwitchRouteDefinition } from '../http/route-definition';
import { countedIngestion, countOutcomes, type IngestCounter } from '../metrics/counted-ingestion';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { webhookEventQueue } from '../webhooks/webhook-events';
import { TypeormWebhooksStore } from '../webhooks/webhooks.store';
import { RedisCallAttributionReader, type AttributionRedis } from './call-attribution.reader';
import { CdrIngestionService, type CdrIngestion, type CdrWriteStores } from './cdr-ingestion.service';
import { cdrRoutes } from './cdrs.routes';
import { CdrsService } from './cdrs.service';
import { TypeormCdrsStore } from './cdrs.store';
import { switchCdrRoutes } from './switch-cdrs.routes';

export interface CdrFeatureDeps {
  /** The primary pool: ingestion writes and looks up there. */
  dataSource: DataSource;
  /** The read replica's pool (docs/operations.md, Read replica); the primary when not configured. */
  readDataSource?: DataSource;
  /** The Redis replacement writes attributions and callers' histories to, and its key prefix. */
  redis: AttributionRedis & CallerHistoryRedis;
  keyPrefix: string;
  /** TELEPHONY_TOKEN, for POST /telephony/cdrs. */
  telephonyToken: string | undefined;
  /** `trackline_cdrs_ingested_total` (docs/operations.md): every record's outcome is counted. */
  metrics: IngestCounter;
}

export interface CdrFeature {
  /** Counted ingestion of typed records, for the provider's calls (telephony/twilio). */
  ingestion: CdrIngestion;
  list: CdrsService;
  /** GET /statistics/cdrs, for the partner route table. */
  routes: RouteDefinition[];
  /** POST /telephony/cdrs, the switch's (bearer token). */
  switchRoutes: SwitchRouteDefinition[];
}

/**
 * The CDR feature on the primary DataSource and the Redis replacement writes attributions to. Each
 * record's transaction stores the CDR and its outbox rows together (docs/notifications.md, The
 * outbox).
 *
 * `readDataSource` (a read replica, docs/operations.md, Read replica) serves the statistics pages,
 * the one read that tolerates replication lag: a record ingested a moment ago may be listed a moment
 * later. Ingestion's lookups (existing call ids, numbers, sources, pricing, leads) stay on the
 * primary: on a lagging replica a retried call_id would be stored twice over and a caller's fresh
 * lead not seen. The customer named by the request is resolved on the primary too, so a customer
 * the partner has just created answers with its records so far instead of 404.
 */
export function createCdrFeature(deps: CdrFeatureDeps): CdrFeature {
  const { dataSource, readDataSource = dataSource, metrics } = deps;
  const writes = typeormUnitOfWork<CdrWriteStores>(dataSource, (manager) => {
    const outbox = new TypeormOutboxStore(manager);
    return {
      cdrs: new TypeormCdrsStore(manager),
      notifications: { enqueue: (items) => outbox.enqueue(manager, items) },
      webhooks: webhookEventQueue(manager),
      customers: new TypeormCustomersStore(manager),
    };
  });
  const primary = new TypeormCdrsStore(dataSource.manager);
  const replica = readDataSource === dataSource ? primary : new TypeormCdrsStore(readDataSource.manager);
  const list = new CdrsService({
    findCustomerId: (partnerId, by) => primary.findCustomerId(partnerId, by),
    page: (query) => replica.page(query),
  });
  const ingestion = countedIngestion(
    new CdrIngestionService(
      writes,
      primary,
      new RedisCallAttributionReader(deps.redis, deps.keyPrefix),
      new TypeormWebhooksStore(dataSource.manager),
      new CallerHistoryStore(deps.redis, deps.keyPrefix),
    ),
    metrics,
  );
  return {
    ingestion,
    list,
    routes: cdrRoutes(list),
    switchRoutes: switchCdrRoutes({
      ingestion,
      countRefused: (failures) => countOutcomes(metrics, failures),
      token: deps.telephonyToken,
    }),
  };
}
