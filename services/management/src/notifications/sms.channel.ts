import { PermanentDeliveryError, type DeliveryChannel, type OutboundNotification } from './delivery-channel';

// Answers that say "try later" rather than "never": timeout, conflict while a retry is in flight,
// rate limit.
const RETRYABLE_CLIENT_STATUSES = new Set([408, 409, 425, 429]);

/**
 * SMS through an HTTP gateway (SMS_GATEWAY_URL): JSON POST `{to, text, idempotency_key}`. The key is
 * the same on every attempt of a row, so a gateway that honours it sends a redelivery only once.
 */
export class SmsChannel implements DeliveryChannel {
  constructor(private readonly gatewayUrl: string) {}

  async deliver(notification: OutboundNotification, signal: AbortSignal): Promise<void> {
    const response = await fetch(this.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': notification.deliveryKey },
      body: JSON.stringify({
        to: notification.recipient,
        text: notification.text,
        idempotency_key: notification.deliveryKey,
      }),
      signal,
    });
    // Drained so the connection can be reused; the body is only quoted in an error.
    const body = (await response.text()).slice(0, 200);
    if (response.ok) return;
    const message = `SMS gateway answered ${response.status}${body === '' ? '' : `: ${body}`}`;
    if (response.status >= 400 && response.status < 500 && !RETRYABLE_CLIENT_STATUSES.has(response.status)) {
      throw new PermanentDeliveryError(message);
    }
    throw new Error(message);
  }
}
