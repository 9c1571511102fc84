import type { Logger, RedisConnection } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import { RedisCallAttributionEraser } from '../cdrs/call-attribution.eraser';
import { CallIntelligencePrivacyStore } from '../call-intelligence/call-intelligence-privacy.store';
import { CdrLifecycleStore } from '../cdrs/cdr-lifecycle.store';
import { TypeormCdrChangesStore } from '../cdrs/cdr-changes.store';
import { CdrPartitionsStore } from '../cdrs/cdr-partitions.store';
import { OutboxPrivacyStore } from '../notifications/outbox-privacy.store';
import { TypeormConversionOutboxStore } from '../conversions/conversion-outbox.store';
import { storesOn } from './stores-on-manager';
import { DataLifecycleJob, type DataLifecycleObserver } from '../data-lifecycle/data-lifecycle.job';
import { DataLifecycleRunsStore } from '../data-lifecycle/data-lifecycle-runs.store';
import { DataLifecycleService } from '../data-lifecycle/data-lifecycle.service';
import { SpamPrivacyEraser } from '../spam/spam-privacy.eraser';
import { TwilioCallsPrivacyStore } from '../telephony/twilio/twilio-calls-privacy.store';
import { WebhookDeliveriesPrivacyStore } from '../webhooks/webhook-deliveries-privacy.store';
import { PrivacyErasureService } from '../data-lifecycle/privacy-erasure.service';

/** The data lifecycle on one DataSource (docs/privacy.md): the daily job and what it is made of. */
export function createDataLifecycle(
  dataSource: DataSource,
  options: {
    monthsAhead: number;
    /** CDR_CHANGE_RETENTION_DAYS. */
    cdrChangeRetentionDays: number;
    hourUtc: number;
    logger: Logger;
    observer?: DataLifecycleObserver;
  },
): { partitions: CdrPartitionsStore; service: DataLifecycleService; job: DataLifecycleJob } {
  const partitions = new CdrPartitionsStore(dataSource);
  const service = new DataLifecycleService(
    {
      partners: storesOn(dataSource.manager).partners,
      partitions,
      cdrs: new CdrLifecycleStore(dataSource),
      outbox: new OutboxPrivacyStore(dataSource),
      conversions: new TypeormConversionOutboxStore(dataSource.manager),
      cdrChanges: new TypeormCdrChangesStore(dataSource.manager),
      callIntelligence: new CallIntelligencePrivacyStore(dataSource.manager),
    },
    options.monthsAhead,
    options.cdrChangeRetentionDays,
  );
  const job = new DataLifecycleJob(
    {
      service,
      runs: new DataLifecycleRunsStore(dataSource),
      logger: options.logger,
      observer: options.observer,
    },
    options.hourUtc,
  );
  return { partitions, service, job };
}

/** `privacy:erase`: Postgres and the Redis replacement writes attributions to. */
export function createPrivacyErasure(
  dataSource: DataSource,
  redis: RedisConnection,
  keyPrefix: string,
): PrivacyErasureService {
  const stores = storesOn(dataSource.manager);
  return new PrivacyErasureService({
    partners: stores.partners,
    cdrs: new CdrLifecycleStore(dataSource),
    outbox: new OutboxPrivacyStore(dataSource),
    webhookDeliveries: new WebhookDeliveriesPrivacyStore(dataSource),
    attributions: new RedisCallAttributionEraser(redis, keyPrefix),
    trackingNumbers: stores.numberHoldBacks,
    providerCalls: new TwilioCallsPrivacyStore(dataSource),
    callIntelligence: new CallIntelligencePrivacyStore(dataSource.manager),
    spam: new SpamPrivacyEraser(dataSource.manager, redis, keyPrefix),
  });
}
