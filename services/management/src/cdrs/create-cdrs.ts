import type { DataSource } from 'typeorm';
import { typeormUnitOfWork } from '../db/unit-of-work';
import type { RouteDefinition } from '../http/route-definition';
import { TypeormOutboxStore } from '../notifications/outbox.store';
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
 * The CDR feature on one DataSource and the Redis replacement writes attributions to. Each record's
 * transaction stores the CDR and its outbox rows together (SPEC §8).
 */
export function createCdrFeature(
  dataSource: DataSource,
  redis: AttributionRedis,
  keyPrefix: string,
): CdrFeature {
  const writes = typeormUnitOfWork<CdrWriteStores>(dataSource, (manager) => {
    const outbox = new TypeormOutboxStore(manager);
    return {
      cdrs: new TypeormCdrsStore(manager),
      notifications: { enqueue: (items) => outbox.enqueue(manager, items) },
    };
  });
  const reads = new TypeormCdrsStore(dataSource.manager);
  const list = new CdrsService(reads);
  return {
    ingestion: new CdrIngestionService(writes, reads, new RedisCallAttributionReader(redis, keyPrefix)),
    list,
    routes: cdrRoutes(list),
  };
}
