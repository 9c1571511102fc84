import type { NotificationChannel, NotificationKind } from './outbox-writer';

/** A message ready to go out: the outbox row with its attachment's bytes loaded. */
export interface OutboundNotification {
  id: string;
  /**
   * Stable for the row across every attempt and every worker: the SMS idempotency key and the
   * e-mail Message-ID, so a resend after a crash is recognisable at the other end.
   */
  deliveryKey: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  subject?: string;
  text: string;
  attachment?: { filename: string; contentType: string; content: Buffer };
  /** E-mail only: an HTML alternative to `text` (a monthly report). */
  html?: string;
  /** E-mail only: more parts; one with a `cid` is an inline image the HTML shows as `cid:<cid>`. */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer; cid?: string }>;
}

/** Resolves once the receiving side accepted the message; rejects otherwise. */
export interface DeliveryChannel {
  deliver(notification: OutboundNotification, signal: AbortSignal): Promise<void>;
}

/** A failure that no retry can fix (refused recipient, recording gone): the row goes dead at once. */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}
