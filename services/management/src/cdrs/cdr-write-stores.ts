import type { ConversionQueue } from '../conversions/conversion-queue';
import type { CustomersStore } from '../customers/customers.store';
import type { NotificationToSend } from '../notifications/outbox-writer';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { CdrWriteStore } from './cdrs.store';

/** The outbox bound to the record's transaction (docs/notifications.md). */
export interface NotificationQueue {
  enqueue(items: NotificationToSend[]): Promise<void>;
}

export interface CdrWriteStores {
  cdrs: CdrWriteStore;
  notifications: NotificationQueue;
  /** Partner webhooks for the record (docs/webhooks.md), in the record's transaction. */
  webhooks: WebhookEventQueue;
  /** Creates the customer a DNI session named when the customer-seen stream has not yet. */
  customers: Pick<CustomersStore, 'ensureSeen'>;
  /** The partner's Google Ads and GA4 conversions of the record (docs/conversions.md), in its transaction. */
  conversions: Pick<ConversionQueue, 'enqueueCalls'>;
}
