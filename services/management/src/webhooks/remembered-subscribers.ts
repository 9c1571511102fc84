import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook';
import type { WebhookSubscriptions } from './webhooks.store';

/** How long a partner seen with an active webhook is taken to have one still. */
export const SUBSCRIBER_MEMORY_MS = 60_000;

const EVERY_EVENT_TYPE: ReadonlySet<WebhookEventType> = new Set(WEBHOOK_EVENT_TYPES);

/**
 * The subscriptions read, left out for partners seen with an active webhook within the last
 * minute (docs/webhooks.md, "When an event is queued"). Their records queue every event type, and
 * the outbox statement keeps what some active webhook of theirs takes, as it checks each webhook's
 * state and types anyway: a call of such a partner costs one statement less, and a webhook they
 * create or widen gets events at once. A partner seen without webhooks is read again at every
 * batch, so its first webhook gets the events of the batches that begin after it.
 */
export function rememberingSubscribers(
  inner: WebhookSubscriptions,
  clock: () => number = Date.now,
): WebhookSubscriptions {
  const seenUntil = new Map<string, number>();
  return {
    async subscribedEventTypes(partnerIds) {
      const now = clock();
      const answer = new Map<string, ReadonlySet<WebhookEventType>>();
      const unread: string[] = [];
      for (const partnerId of partnerIds) {
        if ((seenUntil.get(partnerId) ?? 0) > now) answer.set(partnerId, EVERY_EVENT_TYPE);
        else unread.push(partnerId);
      }
      if (unread.length === 0) return answer;
      for (const partnerId of unread) seenUntil.delete(partnerId);
      for (const [partnerId, types] of await inner.subscribedEventTypes(unread)) {
        answer.set(partnerId, types);
        seenUntil.set(partnerId, now + SUBSCRIBER_MEMORY_MS);
      }
      return answer;
    },
  };
}
