import { readAtMost } from '@trackline/platform';
import { PermanentDeliveryError, type DeliveryChannel, type OutboundNotification } from './delivery-channel';

// Answers that say "try later" rather than "never": timeout, conflict while a retry is in flight,
// rate limit.
/** How much of the gateway's answer an error quotes. */
const QUOTED_ANSWER_BYTES = 200;

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
    // Only quoted in an error: read to a bound while it streams, the rest dropped with the connection.
    const body = (await readAtMost(response, QUOTED_ANSWER_BYTES)).bytes.toString('utf8');
    if (response.ok) return;
    const message = `SMS gateway answered ${response.status}${body === '' ? '' : `: ${body}`}`;
    if (response.status >= 400 && response.status < 500 && !RETRYABLE_CLIENT_STATUSES.has(response.status)) {
      throw new PermanentDeliveryError(message);
    }
    throw new Error(message);
  }
}
