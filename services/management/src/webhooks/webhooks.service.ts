import { ForbiddenError, NotFoundError, ValidationError } from '@trackline/domain';
import type { Paging } from '../validation/paging';
import { isBigintId } from '../validation/record-id';
import type { Webhook, WebhookChanges, WebhookDelivery, WebhookValues } from './webhook';
import type { TypeormWebhookDeliveriesStore } from './webhook-deliveries.store';
import {
  DeliveryTargetError,
  parseWebhookUrl,
  resolveWebhookTarget,
  type HostResolver,
  type InsecureHosts,
  WEBHOOK_URL_MAX_LENGTH,
} from './webhook-url';
import type { WebhooksStore } from './webhooks.store';

/** A partner's endpoints are few; each one costs a delivery row per event. */
export const MAX_WEBHOOKS_PER_PARTNER = 10;

export interface WebhooksServiceDeps {
  webhooks: WebhooksStore;
  deliveries: Pick<TypeormWebhookDeliveriesStore, 'list' | 'enqueueTest' | 'resend' | 'wakePending'>;
  insecureHosts: InsecureHosts;
  resolve: HostResolver;
  newSecret: () => string;
}

/**
 * The partner's webhooks (docs/webhooks.md). A URL is checked when it is set — https, and every
 * address its host resolves to public — and again by the worker before each delivery, so a name
 * that later resolves somewhere private gains nothing.
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  list(partnerId: string): Promise<Webhook[]> {
    return this.deps.webhooks.list(partnerId);
  }

  async get(partnerId: string, webhookId: string): Promise<Webhook> {
    const webhook = await this.deps.webhooks.findById(partnerId, requireWebhookId(webhookId));
    if (webhook === null) throw notFound(webhookId);
    return webhook;
  }

  async create(partnerId: string, values: WebhookValues): Promise<Webhook> {
    const url = await this.checkUrl(values.url);
    if ((await this.deps.webhooks.count(partnerId)) >= MAX_WEBHOOKS_PER_PARTNER) {
      throw new ForbiddenError(
        `A partner has at most ${MAX_WEBHOOKS_PER_PARTNER} webhooks; delete one before adding another`,
      );
    }
    return this.deps.webhooks.insert(partnerId, { ...values, url, secret: this.deps.newSecret() });
  }

  /**
   * `state` 0 enables a webhook Trackline disabled (docs/webhooks.md, Disabled endpoints): its
   * waiting deliveries are due at once, with a fresh set of attempts.
   */
  async update(partnerId: string, webhookId: string, changes: WebhookChanges, now: Date): Promise<Webhook> {
    const id = requireWebhookId(webhookId);
    const current = await this.deps.webhooks.findById(partnerId, id);
    if (current === null) throw notFound(webhookId);
    const checked = { ...changes };
    if (changes.url !== undefined) checked.url = await this.checkUrl(changes.url);
    // Before the state changes: a worker may claim the deliveries the moment it does.
    if (current.state === '2' && changes.state === '0') await this.deps.deliveries.wakePending(id, now);
    const updated = await this.deps.webhooks.update(partnerId, id, checked);
    if (updated === null) throw notFound(webhookId);
    return updated;
  }

  /** Returns the webhook as it was; its queued deliveries are dropped with it. */
  async delete(partnerId: string, webhookId: string): Promise<Webhook> {
    const webhook = await this.get(partnerId, webhookId);
    await this.deps.webhooks.delete(partnerId, webhook.id);
    return webhook;
  }

  async deliveries(
    partnerId: string,
    webhookId: string,
    paging: Paging,
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
    const webhook = await this.get(partnerId, webhookId);
    return this.deps.deliveries.list(partnerId, webhook.id, paging);
  }

  /**
   * The delivery once more, with its `webhook-id` (the receiver's idempotency key), due now. Only
   * to an active webhook: a paused or disabled one would hold it.
   */
  async resend(
    partnerId: string,
    webhookId: string,
    deliveryId: string,
    now: Date,
  ): Promise<WebhookDelivery> {
    const webhook = await this.get(partnerId, webhookId);
    if (!isBigintId(deliveryId)) throw new NotFoundError(`delivery ${deliveryId}`);
    if (webhook.state !== '0')
      throw new ForbiddenError(
        `Webhook ${webhook.id} is ${webhook.state === '1' ? 'paused' : 'disabled'}; set state 0 to send again`,
      );
    const resent = await this.deps.deliveries.resend(partnerId, webhook.id, deliveryId, now);
    if (resent === null) throw new NotFoundError(`delivery ${deliveryId}`);
    if (resent === 'sending')
      throw new ForbiddenError(`Delivery ${deliveryId} is being sent right now; see its attempt in the log`);
    return resent;
  }

  /** Queues a `webhook.test` delivery to this webhook, whatever events it subscribed to. */
  async test(partnerId: string, webhookId: string): Promise<WebhookDelivery> {
    const webhook = await this.get(partnerId, webhookId);
    return this.deps.deliveries.enqueueTest(partnerId, webhook.id);
  }

  private async checkUrl(value: string): Promise<string> {
    const url = parseWebhookUrl('url', value, this.deps.insecureHosts);
    // An insecure host (local development) is not resolved now: nothing about it is checked.
    if (!this.deps.insecureHosts.has(url.hostname)) {
      try {
        await resolveWebhookTarget(url, this.deps.insecureHosts, this.deps.resolve);
      } catch (error) {
        if (error instanceof DeliveryTargetError) throw new ValidationError('url', error.message);
        throw error;
      }
    }
    if (url.href.length > WEBHOOK_URL_MAX_LENGTH) {
      throw new ValidationError('url', `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
    }
    return url.href;
  }
}

function requireWebhookId(value: string): string {
  if (!isBigintId(value)) throw notFound(value);
  return value;
}

function notFound(webhookId: string): NotFoundError {
  return new NotFoundError(`webhook ${webhookId}`);
}
