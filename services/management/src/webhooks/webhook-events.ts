import type { EntityManager } from 'typeorm';
import type { CustomersStore } from '../customers/customers.store';
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
 * The customer-seen upsert (docs/webhooks.md, `customer.created`) in a transaction with the
 * deliveries for a customer it created.
 */
export function customerSeenWithWebhooks(
  transaction: <T>(work: (manager: EntityManager) => Promise<T>) => Promise<T>,
): Pick<CustomersStore, 'upsertSeen'> {
  return {
    upsertSeen: (partnerId, custnr, seen) =>
      transaction(async (manager) => {
        const customers = new TypeormCustomersStore(manager);
        const outcome = await customers.upsertSeen(partnerId, custnr, seen);
        if (outcome === 'created') {
          const [customer] = await customers.list(partnerId, { custnr });
          if (customer !== undefined) {
            await webhookEventQueue(manager).enqueue(partnerId, [
              { type: 'customer.created', customerId: customer.id },
            ]);
          }
        }
        return outcome;
      }),
  };
}
