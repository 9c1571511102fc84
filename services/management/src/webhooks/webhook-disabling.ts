import { formatUtcTimestamp } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type { UniqueNotificationToSend } from '../notifications/outbox.store';
import type { Webhook } from './webhook';

/** What disabling a webhook writes, in one transaction. */
export interface WebhookDisablingStores {
  webhooks: { disable(id: string, now: Date): Promise<Webhook | null> };
  deliveries: { enqueueDisabled(partnerId: string, disabledWebhookId: string): Promise<void> };
  /** The notification outbox: the e-mail to the partner. */
  notices: { enqueueUnique(items: readonly UniqueNotificationToSend[]): Promise<string[]> };
  partners: { findById(id: string): Promise<{ contactEmail: string | null } | null> };
}

/** The dispatcher's door to disabling (webhook-dispatcher.ts); composition builds it on its pool. */
export interface WebhookDisabler {
  /** False when the webhook was not active any more (another worker disabled it first, or the partner paused it). */
  disable(webhookId: string, now: Date): Promise<boolean>;
}

/**
 * Disables a webhook that failed every attempt for WEBHOOK_DISABLE_AFTER_SECONDS (docs/webhooks.md,
 * Disabled endpoints): state '2', a `webhook.disabled` delivery to each of the partner's other
 * active webhooks, and an e-mail to the partner's contact address, all committed together, so the
 * partner hears of it exactly once whichever worker saw the last failure.
 */
export class WebhookDisabling implements WebhookDisabler {
  constructor(private readonly writes: UnitOfWork<WebhookDisablingStores>) {}

  disable(webhookId: string, now: Date): Promise<boolean> {
    return this.writes.run(async ({ webhooks, deliveries, notices, partners }) => {
      const webhook = await webhooks.disable(webhookId, now);
      if (webhook === null) return false;
      await deliveries.enqueueDisabled(webhook.partnerId, webhook.id);
      const contact = (await partners.findById(webhook.partnerId))?.contactEmail ?? null;
      if (contact !== null) await notices.enqueueUnique([disabledNotice(webhook, contact, now)]);
      return true;
    });
  }
}

/** The e-mail: which endpoint, since when, and how to turn it on again. */
export function disabledNotice(webhook: Webhook, recipient: string, now: Date): UniqueNotificationToSend {
  const since =
    webhook.failingSince === null ? 'some time' : `${formatUtcTimestamp(webhook.failingSince)} UTC`;
  return {
    uniqueKey: `webhook_disabled:${webhook.id}:${now.getTime()}`,
    channel: 'email',
    kind: 'webhook_disabled',
    recipient,
    notBefore: now,
    payload: {
      subject: `Trackline disabled webhook ${webhook.id}`,
      text: [
        `Your webhook ${webhook.id} (${webhook.url}) has failed every delivery since ${since},`,
        'so Trackline stopped sending to it. Deliveries queued for it wait and are sent when it is',
        'enabled again; new events are not queued for it meanwhile.',
        '',
        `See why in GET /v1/webhooks/${webhook.id}/deliveries, fix the receiver, then enable it with`,
        `PUT /v1/webhooks/${webhook.id} and state=0.`,
      ].join('\n'),
    },
  };
}
