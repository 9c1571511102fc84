import type { EntityManager } from 'typeorm';
import type { CustomerSightingStores } from '../customer-events/customer-events.service';
import { TypeormCustomersStore } from '../customers/customers.store';
import type { WebhookEvent } from './webhook';
import { TypeormWebhookDeliveriesStore } from './webhook-deliveries.store';

/**
 * Queues webhook deliveries inside the transaction that stores the event's record (a CDR, a new
 * customer), so both commit or neither does: one row per active webhook of the partner that
 * subscribed to the event's type; none when it has none.
 */
export interface WebhookEventQueue {
  enqueue(partnerId: string, events: readonly WebhookEvent[]): Promise<void>;
}

/** The queue bound to a transaction's EntityManager. */
export function webhookEventQueue(manager: EntityManager): WebhookEventQueue {
  const deliveries = new TypeormWebhookDeliveriesStore(manager);
  return { enqueue: (partnerId, events) => deliveries.enqueue(manager, partnerId, events) };
}

/**
 * The customer-seen consumer's transaction (docs/webhooks.md, `customer.created`): the batch upsert,
 * and the deliveries for the customers it created, commit together.
 */
export function customerSightingStores(manager: EntityManager): CustomerSightingStores {
  return { customers: new TypeormCustomersStore(manager), webhooks: webhookEventQueue(manager) };
}
