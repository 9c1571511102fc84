import { formatUtcTimestamp } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { Webhook, WebhookDelivery, WebhookExchange } from './webhook';

export const WEBHOOK_NAMES: ResourceNames = { plural: 'webhooks', singular: 'webhook' };
export const DELIVERY_NAMES: ResourceNames = { plural: 'deliveries', singular: 'delivery' };

/**
 * The webhook as partners see it; `secret` only in the answer that created it (null elsewhere), so
 * a leaked log of later reads holds no signing key.
 */
export function toWebhookRecord(webhook: Webhook, options: { showSecret: boolean }): ApiRecord {
  return {
    webhook_id: webhook.id,
    url: webhook.url,
    events: webhook.events.join(','),
    secret: options.showSecret ? webhook.secret : null,
    state: webhook.state,
    created: formatUtcTimestamp(webhook.created),
    modified: formatUtcTimestamp(webhook.modified),
  };
}

/** One delivery: its event, where it stands, and the receiver's last answer. */
export function toDeliveryRecord(delivery: WebhookDelivery): ApiRecord {
  return {
    delivery_id: delivery.id,
    webhook_id: delivery.webhookId,
    message_id: delivery.messageId,
    event: delivery.eventType,
    status: delivery.status,
    attempts: String(delivery.attempts),
    status_code: delivery.lastStatusCode === null ? null : String(delivery.lastStatusCode),
    error: delivery.lastError,
    created: formatUtcTimestamp(delivery.created),
    last_attempt: delivery.lastAttemptAt === null ? null : formatUtcTimestamp(delivery.lastAttemptAt),
    next_attempt: delivery.nextAttemptAt === null ? null : formatUtcTimestamp(delivery.nextAttemptAt),
    sent: delivery.sentAt === null ? null : formatUtcTimestamp(delivery.sentAt),
    exchanges: delivery.exchanges.map(toExchangeRecord),
  };
}

/**
 * One attempt of the delivery log (docs/webhooks.md, Delivery log): the request as sent — never
 * its signature or the signing secret — and the receiver's answer, its body's first 1 KiB.
 */
function toExchangeRecord(exchange: WebhookExchange): ApiRecord {
  return {
    attempt: String(exchange.attempt),
    requested: formatUtcTimestamp(exchange.requestedAt),
    duration_ms: String(exchange.durationMs),
    request: {
      method: 'POST',
      url: exchange.url,
      webhook_timestamp: String(Math.floor(exchange.requestedAt.getTime() / 1000)),
      body_bytes: String(exchange.bodyBytes),
    },
    status_code: exchange.statusCode === null ? null : String(exchange.statusCode),
    error: exchange.error,
    response_body: exchange.responseBody,
  };
}
