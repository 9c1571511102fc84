import type { CustomersStore } from '../customers/customers.store';
import type { NotificationToSend } from '../notifications/outbox-writer';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { StoredIntegration } from '../integrations/integration';
import type { Cdr } from './cdr';
import type { CdrLookupStore } from './cdr-batch-lookup';
import type { CdrWriteStore } from './cdrs.store';

/** The outbox bound to the record's transaction (docs/notifications.md). */
export interface NotificationQueue {
  enqueue(items: NotificationToSend[]): Promise<void>;
}

export interface CdrWriteStores {
  /** The batch's lookups (cdr-batch-lookup.ts), the transaction's first statements. */
  lookups: CdrLookupStore;
  cdrs: CdrWriteStore;
  notifications: NotificationQueue;
  /** Partner webhooks for the record (docs/webhooks.md), in the record's transaction. */
  webhooks: WebhookEventQueue;
  /** Creates the customer a DNI session named when the customer-seen stream has not yet. */
  customers: Pick<CustomersStore, 'ensureSeen'>;
  /**
   * The partner's Google Ads and GA4 conversions of the records (docs/conversions.md), in their
   * transaction; answers how many were queued. The conversions feature implements it (it reads the
   * records, so it sits above this one): conversions/conversion-queue.ts.
   */
  conversions: { enqueueCalls(cdrs: readonly Cdr[], known?: KnownIntegrations): Promise<number> };
  /**
   * The transcription of the records that came with a recording (a voicemail), in their
   * transaction (docs/call-intelligence.md, The queue). Call intelligence implements it.
   */
  transcriptions: { enqueueRecorded(cdrs: readonly Cdr[]): Promise<void> };
}

/** A partner's integrations as the batch's lookups read them; undefined when they did not. */
export type KnownIntegrations = (partnerId: string) => readonly StoredIntegration[] | undefined;
