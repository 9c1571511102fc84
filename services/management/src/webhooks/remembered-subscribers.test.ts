import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook';
import { rememberingSubscribers, SUBSCRIBER_MEMORY_MS } from './remembered-subscribers';

/** Partner 1 has a webhook for missed calls; partner 2 has none. */
function subscriptionsRead() {
  const reads: string[][] = [];
  const stored = new Map<string, Set<WebhookEventType>>([['1', new Set(['call.missed'])]]);
  return {
    reads,
    subscribedEventTypes: async (partnerIds: readonly string[]) => {
      reads.push([...partnerIds]);
      return new Map([...stored].filter(([partnerId]) => partnerIds.includes(partnerId)));
    },
  };
}

describe('rememberingSubscribers', () => {
  it('reads a partner seen with a webhook once a minute, and answers every type for it meanwhile', async () => {
    const inner = subscriptionsRead();
    let now = 1_000_000;
    const subscriptions = rememberingSubscribers(inner, () => now);

    expect(await subscriptions.subscribedEventTypes(['1'])).toEqual(
      new Map([['1', new Set(['call.missed'])]]),
    );
    now += SUBSCRIBER_MEMORY_MS - 1;
    expect(await subscriptions.subscribedEventTypes(['1'])).toEqual(
      new Map([['1', new Set(WEBHOOK_EVENT_TYPES)]]),
    );
    expect(inner.reads).toEqual([['1']]);

    now += 1;
    await subscriptions.subscribedEventTypes(['1']);
    expect(inner.reads).toEqual([['1'], ['1']]);
  });

  it('reads a partner seen without webhooks at every batch', async () => {
    const inner = subscriptionsRead();
    const subscriptions = rememberingSubscribers(inner, () => 0);

    expect(await subscriptions.subscribedEventTypes(['1', '2'])).toEqual(
      new Map([['1', new Set(['call.missed'])]]),
    );
    expect(await subscriptions.subscribedEventTypes(['1', '2'])).toEqual(
      new Map([['1', new Set(WEBHOOK_EVENT_TYPES)]]),
    );
    expect(await subscriptions.subscribedEventTypes(['1'])).toEqual(
      new Map([['1', new Set(WEBHOOK_EVENT_TYPES)]]),
    );
    expect(inner.reads).toEqual([['1', '2'], ['2']]);
  });
});
