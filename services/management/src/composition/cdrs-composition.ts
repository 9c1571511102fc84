import { enqueueTranscriptionJobs } from '../call-intelligence/transcription-jobs.store';
import { CallerHistoryStore, type CallerHistoryRedis } from '@trackline/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { RedisCallAttributionReader, type AttributionRedis } from '../cdrs/call-attribution.reader';
import type { CdrWriteStores } from '../cdrs/cdr-write-stores';
import { TypeormCdrChangesStore } from '../cdrs/cdr-changes.store';
import { createCdrFeature, type CdrFeature, type CdrFeatureDeps } from '../cdrs/create-cdrs';
import type { OutboxBell, OutboxName } from '../db/outbox-bell';
import type { UnitOfWork } from '../db/unit-of-work';
import type { IngestMetrics } from '../cdrs/cdr-ingest-metrics';
import { cdrsStoreOn, storesOn } from './stores-on-manager';
import { rememberingSubscribers } from '../webhooks/remembered-subscribers';

export interface CdrConnections {
  /** The primary's main pool: the customer a statistics request names. */
  dataSource: DataSource;
  /** The read replica's pool (docs/operations.md, Read replica); the primary when not configured. */
  readDataSource?: DataSource;
  /**
   * The primary's pool for call records, where ingestion looks up and writes (docs/operations.md,
   * Call records' pool); the main pool when not given.
   */
  ingestionDataSource?: DataSource;
  /** The Redis replacement writes attributions and callers' histories to, and its key prefix. */
  redis: AttributionRedis & CallerHistoryRedis;
  keyPrefix: string;
  /** TELEPHONY_TOKEN, for POST /telephony/cdrs. */
  telephonyToken: string | undefined;
  metrics: IngestMetrics;
  /** Rung after a transaction that queued outbox rows, for this process's workers (db/outbox-bell.ts). */
  outboxBell?: OutboxBell;
  /** Store outages told once each (docs/operations.md, Store outages). */
  outages?: CdrFeatureDeps['outages'];
}

/**
 * The CDR feature's stores (docs/architecture.md, Composition).
 *
 * The read replica serves the statistics pages, the one read that tolerates replication lag: a
 * record ingested a moment ago may be listed a moment later. Ingestion's lookups (existing call ids,
 * numbers, sources, pricing, leads) stay on the primary: on a lagging replica a retried call_id
 * would be stored twice over and a caller's fresh lead not seen. The customer named by the request
 * is resolved on the primary too, so a customer the partner has just created answers with its
 * records so far instead of 404.
 */
export function composeCdrFeature(connections: CdrConnections): CdrFeature {
  const { dataSource, readDataSource = dataSource, ingestionDataSource = dataSource } = connections;
  const writes: UnitOfWork<CdrWriteStores> = {
    run: async (work) => {
      const queued = new Set<OutboxName>();
      const result = await ingestionDataSource.transaction((manager) =>
        work(cdrWriteStoresOn(manager, queued)),
      );
      // Only once committed: a worker woken earlier would not see the rows yet.
      connections.outboxBell?.ring(queued);
      return result;
    },
  };
  const main = storesOn(dataSource.manager);
  const ingestion = ingestionDataSource === dataSource ? main : storesOn(ingestionDataSource.manager);
  return createCdrFeature({
    writes,
    primary: main.cdrs,
    replica: readDataSource === dataSource ? main.cdrs : cdrsStoreOn(readDataSource.manager),
    attributions: new RedisCallAttributionReader(connections.redis, connections.keyPrefix),
    webhooks: rememberingSubscribers(ingestion.webhooks),
    callerHistory: new CallerHistoryStore(connections.redis, connections.keyPrefix),
    changes: new TypeormCdrChangesStore(dataSource.manager),
    telephonyToken: connections.telephonyToken,
    metrics: connections.metrics,
    outages: connections.outages,
  });
}

/** The stores of one call transaction; `queued` collects the outboxes it wrote rows to. */
function cdrWriteStoresOn(manager: EntityManager, queued: Set<OutboxName>): CdrWriteStores {
  const stores = storesOn(manager);
  return {
    lookups: stores.cdrs,
    cdrs: stores.cdrs,
    notifications: {
      enqueue: async (items) => {
        await stores.outbox.enqueue(manager, items);
        if (items.length > 0) queued.add('notifications');
      },
    },
    webhooks: {
      enqueue: async (partnerId, events) => {
        await stores.webhookEvents.enqueue(partnerId, events);
        if (events.length > 0) queued.add('webhooks');
      },
    },
    customers: stores.customers,
    conversions: {
      enqueueCalls: async (cdrs, known) => {
        const count = await stores.conversions.enqueueCalls(cdrs, known);
        if (count > 0) queued.add('conversions');
        return count;
      },
    },
    transcriptions: {
      enqueueRecorded: (cdrs) =>
        enqueueTranscriptionJobs(
          manager,
          cdrs
            .filter((cdr) => cdr.hasRecording)
            .map((cdr) => ({
              partnerId: cdr.partnerId,
              cdrId: cdr.id,
              cdrStart: cdr.start,
              recording: 'voicemail',
            })),
        ),
    },
  };
}
