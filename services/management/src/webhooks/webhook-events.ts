import type { EntityManager } from 'typeorm';
import type { WebhookEvent } from './webhook';
import type { TypeormWebhookDeliveriesStore } from './webhook-deliveries.store';

/**
 * Queues webhook deliveries inside the transaction that stores the event's record (a CDR, a new
 * customer), so both commit or neither does: one row per active webhook of the partner that
 * subscribed to the event's type; none when it has none.
 */
export interface WebhookEventQueue {
  enqueue(partnerId: string, events: readonly WebhookEvent[]): Promise<void>;
}

/** The queue bound to a transaction's EntityManager. */
export function webhookEventQueue(
  deliveries: Pick<TypeormWebhookDeliveriesStore, 'enqueue'>,
  manager: EntityManager,
): WebhookEventQueue {
  return { enqueue: (partnerId, events) => deliveries.enqueue(manager, partnerId, events) };
}
