/** The event catalogue (docs/webhooks.md), in the order records list them. */
export const WEBHOOK_EVENT_TYPES = [
  'call.completed',
  'call.missed',
  'voicemail.new',
  'customer.created',
  'pool.exhausted',
  'pool.resized',
  'call.outcome',
  'call.transcribed',
  'call.classified',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by POST /webhooks/:id/test only; no partner subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * Sent to a partner's other active webhooks when Trackline disables one (docs/webhooks.md,
 * Disabled endpoints), whatever their `events`: nobody needs to subscribe to hear of it.
 */
export const DISABLED_EVENT_TYPE = 'webhook.disabled';

/**
 * '0' active, '1' paused: a paused webhook is sent nothing new. '2' disabled: Trackline stopped it
 * after it failed every attempt for WEBHOOK_DISABLE_AFTER_SECONDS; the partner sets '0' again.
 */
export type WebhookState = '0' | '1' | '2';

export interface Webhook {
  id: string;
  partnerId: string;
  url: string;
  events: WebhookEventType[];
  /** `whsec_…`; shown to the partner only in the answer to POST. */
  secret: string;
  state: WebhookState;
  /** The first failed attempt since the last accepted one; null while it answers. */
  failingSince: Date | null;
  /** When Trackline disabled it; null unless state is '2'. */
  disabledAt: Date | null;
  created: Date;
  modified: Date;
}

export interface WebhookValues {
  url: string;
  events: WebhookEventType[];
  /** The partner sets '0' or '1'; only Trackline sets '2'. */
  state: WebhookState;
}

export type WebhookChanges = Partial<WebhookValues>;

/** A row of the webhook outbox, as GET /webhooks/:id/deliveries shows it. */
export interface WebhookDelivery {
  id: string;
  messageId: string;
  webhookId: string;
  eventType: string;
  status: 'pending' | 'sending' | 'sent' | 'dead';
  attempts: number;
  occurredAt: Date;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** When it is tried next; null unless pending (being sent, sent or dead). */
  nextAttemptAt: Date | null;
  created: Date;
  sentAt: Date | null;
  /** The last attempts' requests and answers, oldest first (docs/webhooks.md, Delivery log). */
  exchanges: WebhookExchange[];
}

/** One attempt as the delivery log shows it: what was sent (never a secret) and what came back. */
export interface WebhookExchange {
  /** The delivery's attempt count when it was made (1 again after a resend). */
  attempt: number;
  /** Also its `webhook-timestamp`. */
  requestedAt: Date;
  durationMs: number;
  url: string;
  bodyBytes: number;
  /** Null when no answer came (refused, timed out). */
  statusCode: number | null;
  error: string | null;
  /** The first 1 KiB of the answer's body. */
  responseBody: string | null;
}

/** What happened, naming the stored record the body is rendered from. */
export type WebhookEvent =
  /** `cdrStart` is the record's start: the worker reads the record from its partition by it. */
  | {
      type:
        | 'call.completed'
        | 'call.missed'
        | 'voicemail.new'
        | 'call.outcome'
        | 'call.transcribed'
        | 'call.classified';
      cdrId: string;
      cdrStart: Date;
    }
  | { type: 'customer.created'; customerId: string }
  /** Names no record: the delivery's `occurred_at` finds the partner-hour (docs/pool-sizing.md). */
  | { type: 'pool.exhausted' }
  /** Names no record either: the delivery's `occurred_at` finds the pool's audit row. */
  | { type: 'pool.resized' };

/**
 * The events one stored call record raises: every record is `call.completed`; one the customer did
 * not answer is also `call.missed`, and one that left a voicemail also `voicemail.new`
 * (docs/webhooks.md).
 */
export function callEvents(cdr: {
  id: string;
  start: Date;
  answered: boolean;
  voicemail: boolean;
}): WebhookEvent[] {
  const record = { cdrId: cdr.id, cdrStart: cdr.start };
  const events: WebhookEvent[] = [{ type: 'call.completed', ...record }];
  if (!cdr.answered) events.push({ type: 'call.missed', ...record });
  if (cdr.voicemail) events.push({ type: 'voicemail.new', ...record });
  return events;
}
