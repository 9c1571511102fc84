import type { DataSource } from 'typeorm';
import { conversionQueue } from '../conversions/conversion-queue';
import { TypeormCustomersStore } from '../customers/customers.store';
import { typeormUnitOfWork } from '../db/unit-of-work';
import type { RouteDefinition } from '../http/route-definition';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { webhookEventQueue } from '../webhooks/webhook-events';
import { TypeormWebhooksStore } from '../webhooks/webhooks.store';
import { RedisCallAttributionReader, type AttributionRedis } from './call-attribution.reader';
import { CdrIngestionService, type CdrWriteStores } from './cdr-ingestion.service';
import { cdrRoutes } from './cdrs.routes';
import { CdrsService } from './cdrs.service';
import { TypeormCdrsStore } from './cdrs.store';

export interface CdrFeature {
  /** For `telephonyRoutes({ cdrs: ingestion, ... })`. */
  ingestion: CdrIngestionService;
  list: CdrsService;
  /** GET /statistics/cdrs, for the partner route table. */
  routes: RouteDefinition[];
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
export function createCdrFeature(
  dataSource: DataSource,
  redis: AttributionRedis,
  keyPrefix: string,
  readDataSource: DataSource = dataSource,
): CdrFeature {
  const writes = typeormUnitOfWork<CdrWriteStores>(dataSource, (manager) => {
    const outbox = new TypeormOutboxStore(manager);
    return {
      cdrs: new TypeormCdrsStore(manager),
      notifications: { enqueue: (items) => outbox.enqueue(manager, items) },
      webhooks: webhookEventQueue(manager),
      customers: new TypeormCustomersStore(manager),
      conversions: conversionQueue(manager),
    };
  });
  const primary = new TypeormCdrsStore(dataSource.manager);
  const replica = readDataSource === dataSource ? primary : new TypeormCdrsStore(readDataSource.manager);
  const list = new CdrsService({
    findCustomerId: (partnerId, by) => primary.findCustomerId(partnerId, by),
    page: (query) => replica.page(query),
  });
  return {
    ingestion: new CdrIngestionService(
      writes,
      primary,
      new RedisCallAttributionReader(redis, keyPrefix),
      new TypeormWebhooksStore(dataSource.manager),
    ),
    list,
    routes: cdrRoutes(list),
  };
}
