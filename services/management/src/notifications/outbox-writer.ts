import type { EntityManager } from 'typeorm';

export type NotificationChannel = 'email' | 'sms';
export type NotificationKind = 'missed_call' | 'new_voicemail' | 'monthly_report' | 'webhook_disabled';

/**
 * The recording is referenced by the CDR that holds it, never copied: the outbox row stays small
 * and the audio is read once, when the e-mail is built.
 */
export interface NotificationAttachment {
  filename: string;
  contentType: string;
  sourceCdrId: string;
}

/** One message to one recipient over one channel, as the CDR ingestion asks for it. */
export interface NotificationToSend {
  channel: NotificationChannel;
  kind: NotificationKind;
  /** An e-mail address, or an E.164 number for SMS. */
  recipient: string;
  /** E-mail only. */
  subject?: string;
  text: string;
  cdrId: string;
  attachment?: NotificationAttachment;
}

/**
 * Writes notifications into the outbox with the caller's transaction, so a CDR and its
 * notifications are stored together or not at all (docs/notifications.md, The outbox).
 */
export interface OutboxWriter {
  enqueue(manager: EntityManager, items: NotificationToSend[]): Promise<void>;
}
