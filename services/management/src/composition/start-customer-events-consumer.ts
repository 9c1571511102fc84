import { hostname } from 'node:os';
import type { Logger, StoreOutages } from '@trackline/platform';
import { createCustomerEventsRedis } from './management-connections';
import type { ManagementConfig } from '../config/management-config';
import type { UnitOfWork } from '../db/unit-of-work';
import { CustomerEventsConsumer } from '../customer-events/customer-events.consumer';
import type { ManagementMetrics } from '../metrics/management-metrics';
import {
  CustomerEventsService,
  type CustomerEventResult,
  type CustomerSightingStores,
  type StreamPartner,
} from '../customer-events/customer-events.service';

export interface StartCustomerEventsConsumerDeps {
  config: Pick<ManagementConfig, 'redis' | 'customerEvents'>;
  /** The transaction a batch of sightings is applied in. */
  sightings: UnitOfWork<CustomerSightingStores>;
  /** The partners store (its list() is re-read every partnerRefreshMs). */
  partners: { list(): Promise<StreamPartner[]> };
  logger: Logger;
  /** Told each entry's result (metrics). */
  metrics?: Pick<ManagementMetrics, 'customerEvent'>;
  /** The app's store outages (docs/operations.md, Store outages). */
  outages?: StoreOutages<string>;
}

/**
 * Opens the consumer's own Redis connection (composition/management-connections.ts) and starts
 * consuming (docs/redis-keys.md, Customer-seen stream). Call stop() at shutdown: it finishes the
 * round in flight and closes that connection.
 */
export function startCustomerEventsConsumer(deps: StartCustomerEventsConsumerDeps): CustomerEventsConsumer {
  const { redis, customerEvents } = deps.config;
  const connection = createCustomerEventsRedis(deps.config, deps.logger);
  const consumer = new CustomerEventsConsumer(
    {
      redis: connection,
      partners: deps.partners,
      events: countedEvents(new CustomerEventsService(deps.sightings), deps.metrics),
      logger: deps.logger,
      outages: deps.outages,
      clock: Date.now,
    },
    {
      keyPrefix: redis.keyPrefix,
      consumerName: `${hostname()}-${process.pid}`,
      blockMs: customerEvents.blockMs,
      batchSize: customerEvents.batchSize,
      reclaimIdleMs: customerEvents.reclaimIdleMs,
      // Often enough that a crashed consumer's entries wait little more than the idle time.
      reclaimIntervalMs: Math.max(1_000, Math.floor(customerEvents.reclaimIdleMs / 2)),
      partnerRefreshMs: customerEvents.partnerRefreshMs,
      retryDelayMs: customerEvents.retryDelayMs,
    },
  );
  consumer.start();
  return consumer;
}

type EventApplier = Pick<CustomerEventsService, 'applyBatch'>;

/** The service, with each entry's result counted: processed, malformed (skipped) or failed (retried). */
function countedEvents(
  events: EventApplier,
  metrics: Pick<ManagementMetrics, 'customerEvent'> | undefined,
): EventApplier {
  if (metrics === undefined) return events;
  return {
    applyBatch: async (
      partner: StreamPartner,
      batch: ReadonlyArray<readonly string[]>,
    ): Promise<CustomerEventResult[]> => {
      try {
        const results = await events.applyBatch(partner, batch);
        for (const result of results)
          metrics.customerEvent(result.kind === 'malformed' ? 'malformed' : 'processed');
        return results;
      } catch (error) {
        for (let i = 0; i < batch.length; i++) metrics.customerEvent('failed');
        throw error;
      }
    },
  };
}
