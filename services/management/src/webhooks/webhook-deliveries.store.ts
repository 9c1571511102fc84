import type { EntityManager } from 'typeorm';
import { deferredStatement } from '../db/statement-pipelining';
import {
  LeasedQueue,
  type FailureMark,
  type FinalMark,
  type LeasedQueueTable,
  type QueueBacklog,
} from '../db/leased-queue';
import type { Paging } from '../validation/paging';
import type { WebhookDelivery, WebhookEvent, WebhookExchange } from './webhook';
import { DISABLED_EVENT_TYPE, TEST_EVENT_TYPE } from './webhook';

/** A delivery a worker holds under its lease, with what it needs to send it. */
export interface ClaimedWebhookDelivery {
  id: string;
  messageId: string;
  webhookId: string;
  partnerId: string;
  eventType: string;
  cdrId: string | null;
  /** The record's start, kept with call events since it was kept (older rows: null). */
  cdrStart: Date | null;
  customerId: string | null;
  /** `webhook.disabled`: the webhook it tells about. */
  subjectWebhookId: string | null;
  occurredAt: Date;
  url: string;
  secret: string;
  /**
   * The partner's setting as the claim read it (docs/webhooks.md, How it runs): a call event's
   * record shows the caller's number whole only when it is on.
   */
  showFullAnum: boolean;
  /** Including the one that starts now. */
  attempts: number;
}

/** What a claim took, and whether due deliveries were left for want of a slot (db/leased-queue.ts, FairClaim). */
export interface WebhookClaim {
  deliveries: ClaimedWebhookDelivery[];
  leftWaiting: boolean;
}

/** Which dead deliveries an operator sends again; every field narrows the set. */
export interface DeadWebhookDeliveryFilter {
  partnerId?: string;
  /** Only deliveries written (with their event) at or after this time. */
  since?: Date;
}

/** One attempt's request and answer for the delivery log, and whether the receiver accepted it. */
export interface LoggedAttempt extends WebhookExchange {
  deliveryId: string;
  webhookId: string;
  accepted: boolean;
}

/** A webhook after an attempt: failing since when (null: it answers), and its state. */
export interface WebhookHealth {
  failingSince: Date | null;
  state: string | null;
}

/** The outbox of webhook deliveries, as the worker uses it; every change after the claim holds only while the lease is ours. */
export interface WebhookDeliveryQueue {
  /**
   * Leases up to `limit` due rows (or rows whose worker died) to `worker` until `leaseUntil`,
   * counting the attempt, at most `perWebhook` in flight per webhook, so one slow or failing
   * endpoint cannot take every slot, and at most a fair share of `slots` per partner (`slots`
   * divided by one more than the partners with work, at least one), taken in turns across
   * partners, so partners whose endpoints hang cannot hold up the others or one that comes next. Rows another transaction is claiming are skipped.
   */
  claim(
    worker: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
    perWebhook: number,
    slots: number,
  ): Promise<WebhookClaim>;
  /** Final state sent. False when the lease was lost. */
  complete(id: string, worker: string, statusCode: number, now: Date): Promise<boolean>;
  /** Back to pending until `retryAt`, or dead when `retryAt` is null. False when the lease was lost. */
  fail(
    id: string,
    worker: string,
    failure: { statusCode: number | null; error: string },
    retryAt: Date | null,
  ): Promise<boolean>;
  /**
   * Keeps the attempt in the delivery log and the webhook's failure streak with it, and marks the
   * delivery as `complete` or `fail` would, in one statement: an accepted attempt ends the streak,
   * a failed one starts it if none runs. The log is kept even when the lease was lost (`owned`
   * false: the mark changed nothing).
   */
  logAndMark(attempt: LoggedAttempt, worker: string, mark: AttemptMark): Promise<SettledAttempt>;
}

/** What becomes of a delivery after an attempt: sent, or pending again at `retryAt` (dead when null). */
export type AttemptMark =
  | { sent: true; statusCode: number; now: Date }
  | { sent: false; statusCode: number | null; error: string; retryAt: Date | null };

/** An attempt logged and marked: whether the lease was still ours, and the webhook's health after it. */
export interface SettledAttempt {
  owned: boolean;
  health: WebhookHealth;
}

// Only active webhooks that subscribed to the type get a row; each row draws its own message id,
// which every attempt then carries as `webhook-id`. In a transaction the rows go to Postgres with the
// transaction's next statement (db/statement-pipelining.ts).
const ENQUEUE_SQL = deferredStatement(`
  INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, cdr_id, cdr_start, customer_id)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, w.partner_id, e.type, e.cdr_id, e.cdr_start,
         e.customer_id
    FROM webhooks w
    JOIN unnest($2::text[], $3::bigint[], $4::timestamptz[], $5::bigint[]) AS e(type, cdr_id, cdr_start, customer_id)
      ON e.type = ANY (w.events)
   WHERE w.partner_id = $1 AND w.state = '0'`);

const ENQUEUE_TEST_SQL = `
  INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type)
  VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), $1, $2, '${TEST_EVENT_TYPE}')
  RETURNING id`;

// To the partner's other active webhooks, whatever their `events` (docs/webhooks.md, Disabled endpoints).
const ENQUEUE_DISABLED_SQL = `
  INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, subject_webhook_id)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, w.partner_id, '${DISABLED_EVENT_TYPE}', $2
    FROM webhooks w
   WHERE w.partner_id = $1 AND w.state = '0' AND w.id <> $2`;

// The receiver's answer in the log is cut here: enough to see why, never an archive of its pages.
export const LOGGED_ANSWER_BYTES = 1024;
/** The delivery log shows this many attempts of each delivery, the latest. */
export const LOGGED_EXCHANGES = 20;

// The attempt's log, the webhook's failure streak and the delivery's mark (`$12` on, the leased
// queue's UPDATE) in one statement: one transaction an attempt instead of two.
function logAndMarkSql(markSql: string): string {
  return `
  WITH logged AS (
    INSERT INTO webhook_delivery_attempts
      (delivery_id, attempt, requested_at, duration_ms, url, body_bytes, status_code, error, response_body)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ), health AS (
    UPDATE webhooks SET failing_since = CASE WHEN $10 THEN NULL ELSE coalesce(failing_since, $3) END
     WHERE id = $11 AND (NOT $10 OR failing_since IS NOT NULL)
    RETURNING failing_since, state
  ), marked AS (
    ${markSql}
    RETURNING 1
  )
  SELECT (SELECT failing_since FROM health) AS failing_since, (SELECT state FROM health) AS state,
         EXISTS (SELECT 1 FROM marked) AS owned`;
}

const DELIVERY_COLUMNS = `id::text, message_id, webhook_id::text, event_type, status, attempts, occurred_at,
  last_attempt_at, last_status_code, last_error, next_attempt_at, created, sent_at`;

// last_status_code and last_error are kept: until the next attempt they say why the row died.
const REQUEUE_DEAD_SQL = `
  WITH requeued AS (
    UPDATE webhook_deliveries
       SET status = 'pending', attempts = 0, next_attempt_at = $1, locked_by = NULL, locked_until = NULL
     WHERE status = 'dead'
       AND ($2::bigint IS NULL OR partner_id = $2)
       AND ($3::timestamptz IS NULL OR created >= $3)
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM requeued`;

// Longer messages are cut: last_error is for a reader of the deliveries list, not an archive.
const MAX_ERROR_LENGTH = 1_000;

interface DeliveryRow {
  id: string;
  message_id: string;
  webhook_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  occurred_at: Date;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  created: Date;
  sent_at: Date | null;
}

type ClaimRow = {
  id: string;
  attempts: number;
  message_id: string;
  webhook_id: string;
  partner_id: string;
  event_type: string;
  cdr_id: string | null;
  cdr_start: Date | null;
  customer_id: string | null;
  subject_webhook_id: string | null;
  occurred_at: Date;
  url: string;
  secret: string;
  show_full_anum: boolean;
};

const WEBHOOK_QUEUE: LeasedQueueTable = {
  table: 'webhook_deliveries',
  claimColumns: [
    'o.message_id',
    'o.webhook_id::text AS webhook_id',
    'o.partner_id::text AS partner_id',
    'o.event_type',
    'o.cdr_id::text AS cdr_id',
    'o.cdr_start',
    'o.customer_id::text AS customer_id',
    'o.subject_webhook_id::text AS subject_webhook_id',
    'o.occurred_at',
  ],
  maxErrorLength: MAX_ERROR_LENGTH,
  attemptedAtColumn: 'last_attempt_at',
  // A paused webhook's queue waits.
  fairShare: {
    laneTable: 'webhooks',
    laneColumn: 'webhook_id',
    tenantColumn: 'partner_id',
    laneActive: `w.state = '0'`,
    // The one partner setting a call event's body needs, read with the claim instead of after it.
    laneClaimColumns: [
      'w.url',
      'w.secret',
      '(SELECT p.show_full_anum FROM partners p WHERE p.id = w.partner_id) AS show_full_anum',
    ],
  },
};

export class TypeormWebhookDeliveriesStore implements WebhookDeliveryQueue {
  private readonly queue: LeasedQueue;

  constructor(private readonly manager: EntityManager) {
    this.queue = new LeasedQueue(manager, WEBHOOK_QUEUE);
  }

  /** The rows waiting for delivery and how long the longest-due has waited (metrics). */
  backlog(): Promise<QueueBacklog> {
    return this.queue.backlog();
  }

  /** Uses the caller's manager, so the rows commit or roll back with the event's record. */
  async enqueue(manager: EntityManager, partnerId: string, events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    await manager.query(ENQUEUE_SQL, [
      partnerId,
      events.map((event) => event.type),
      events.map((event) => ('cdrId' in event ? event.cdrId : null)),
      events.map((event) => ('cdrStart' in event ? event.cdrStart : null)),
      events.map((event) => ('customerId' in event ? event.customerId : null)),
    ]);
  }

  async enqueueTest(partnerId: string, webhookId: string): Promise<WebhookDelivery> {
    const [row] = (await this.manager.query(ENQUEUE_TEST_SQL, [webhookId, partnerId])) as Array<{
      id: string;
    }>;
    const [delivery] = (await this.manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`,
      [row!.id],
    )) as DeliveryRow[];
    return toDelivery(delivery!, []);
  }

  /** `webhook.disabled` to the partner's other active webhooks, in the caller's transaction. */
  async enqueueDisabled(partnerId: string, disabledWebhookId: string): Promise<void> {
    await this.manager.query(ENQUEUE_DISABLED_SQL, [partnerId, disabledWebhookId]);
  }

  /**
   * The delivery again, with the same `webhook-id`, due now with a fresh set of attempts; null
   * when the webhook has no such delivery. One being sent right now is left alone (`sending`).
   */
  async resend(
    partnerId: string,
    webhookId: string,
    deliveryId: string,
    now: Date,
  ): Promise<WebhookDelivery | 'sending' | null> {
    const rows = (await this.manager.query(
      `WITH found AS (
         SELECT id, status FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2 AND partner_id = $3
       ), resent AS (
         UPDATE webhook_deliveries d
            SET status = 'pending', attempts = 0, next_attempt_at = $4, locked_by = NULL, locked_until = NULL
           FROM found f WHERE d.id = f.id AND f.status <> 'sending'
         RETURNING d.id
       )
       SELECT f.status, (SELECT count(*) FROM resent)::int AS resent FROM found f`,
      [deliveryId, webhookId, partnerId, now],
    )) as Array<{ status: string; resent: number }>;
    if (rows[0] === undefined) return null;
    if (rows[0].resent === 0) return 'sending';
    return (await this.deliveriesByIds([deliveryId]))[0]!;
  }

  /** A re-enabled webhook's waiting deliveries are due now, with a fresh set of attempts. */
  async wakePending(webhookId: string, now: Date): Promise<number> {
    const rows = (await this.manager.query(
      `UPDATE webhook_deliveries SET attempts = 0, next_attempt_at = $2
        WHERE webhook_id = $1 AND status = 'pending' RETURNING 1`,
      [webhookId, now],
    )) as [unknown[], number];
    return rows[1];
  }

  async logAndMark(attempt: LoggedAttempt, worker: string, mark: AttemptMark): Promise<SettledAttempt> {
    const marked = this.queue.markStatement(attempt.deliveryId, worker, markOf(mark), LOGGED_PARAMETERS + 1);
    const rows = (await this.manager.query(logAndMarkSql(marked.sql), [
      attempt.deliveryId,
      attempt.attempt,
      attempt.requestedAt,
      attempt.durationMs,
      attempt.url,
      attempt.bodyBytes,
      attempt.statusCode,
      attempt.error === null ? null : attempt.error.slice(0, MAX_ERROR_LENGTH),
      attempt.responseBody === null ? null : cutToBytes(attempt.responseBody, LOGGED_ANSWER_BYTES),
      attempt.accepted,
      attempt.webhookId,
      ...marked.values,
    ])) as Array<{ failing_since: Date | null; state: string | null; owned: boolean }>;
    const row = rows[0]!;
    // No health: accepted while nothing was failing, or the webhook is gone.
    return { owned: row.owned, health: { failingSince: row.failing_since, state: row.state } };
  }

  /**
   * One webhook's deliveries, newest first. Ordered by the column, not by the output's `id`
   * (its text form, which would put 9 before 12).
   */
  async list(
    partnerId: string,
    webhookId: string,
    paging: Paging,
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
    const rows = (await this.manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
        WHERE webhook_id = $1 AND partner_id = $2
        ORDER BY webhook_deliveries.id DESC LIMIT $3 OFFSET $4`,
      [webhookId, partnerId, paging.pageSize, paging.page * paging.pageSize],
    )) as DeliveryRow[];
    const [counted] = (await this.manager.query(
      'SELECT count(*)::int AS total FROM webhook_deliveries WHERE webhook_id = $1 AND partner_id = $2',
      [webhookId, partnerId],
    )) as Array<{ total: number }>;
    const exchanges = await this.exchanges(rows.map((row) => row.id));
    return {
      deliveries: rows.map((row) => toDelivery(row, exchanges.get(row.id) ?? [])),
      total: counted!.total,
    };
  }

  private async deliveriesByIds(ids: readonly string[]): Promise<WebhookDelivery[]> {
    const rows = (await this.manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    )) as DeliveryRow[];
    const exchanges = await this.exchanges(ids);
    return rows.map((row) => toDelivery(row, exchanges.get(row.id) ?? []));
  }

  /** The last LOGGED_EXCHANGES attempts of each delivery, oldest first, in one query. */
  private async exchanges(deliveryIds: readonly string[]): Promise<Map<string, WebhookExchange[]>> {
    const found = new Map<string, WebhookExchange[]>();
    if (deliveryIds.length === 0) return found;
    const rows = (await this.manager.query(
      `SELECT delivery_id::text AS delivery_id, attempt, requested_at, duration_ms, url, body_bytes,
              status_code, error, response_body
         FROM (SELECT a.*, row_number() OVER (PARTITION BY delivery_id ORDER BY id DESC) AS latest
                 FROM webhook_delivery_attempts a WHERE delivery_id = ANY($1::bigint[])) AS logged
        WHERE latest <= $2
        ORDER BY delivery_id, id`,
      [deliveryIds, LOGGED_EXCHANGES],
    )) as Array<Record<string, unknown>>;
    for (const row of rows) {
      const list = found.get(row.delivery_id as string) ?? [];
      list.push({
        attempt: row.attempt as number,
        requestedAt: row.requested_at as Date,
        durationMs: row.duration_ms as number,
        url: row.url as string,
        bodyBytes: row.body_bytes as number,
        statusCode: (row.status_code as number | null) ?? null,
        error: (row.error as string | null) ?? null,
        responseBody: (row.response_body as string | null) ?? null,
      });
      found.set(row.delivery_id as string, list);
    }
    return found;
  }

  async claim(
    worker: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
    perWebhook: number,
    slots: number,
  ): Promise<WebhookClaim> {
    const { rows, leftWaiting } = await this.queue.claimFair({
      worker,
      now,
      leaseUntil,
      limit,
      perLane: perWebhook,
      slots,
    });
    const deliveries = (rows as ClaimRow[]).map((row) => ({
      id: row.id,
      messageId: row.message_id,
      webhookId: row.webhook_id,
      partnerId: row.partner_id,
      eventType: row.event_type,
      cdrId: row.cdr_id,
      cdrStart: row.cdr_start,
      customerId: row.customer_id,
      subjectWebhookId: row.subject_webhook_id,
      occurredAt: row.occurred_at,
      url: row.url,
      secret: row.secret,
      showFullAnum: row.show_full_anum,
      attempts: row.attempts,
    }));
    return { deliveries, leftWaiting };
  }

  complete(id: string, worker: string, statusCode: number, now: Date): Promise<boolean> {
    return this.queue.complete(id, worker, sentMark(statusCode, now));
  }

  fail(
    id: string,
    worker: string,
    failure: { statusCode: number | null; error: string },
    retryAt: Date | null,
  ): Promise<boolean> {
    return this.queue.fail(id, worker, failureMark(failure.statusCode, failure.error, retryAt));
  }

  /** Dead rows back to pending with a fresh set of attempts, due at `now`; same message id. */
  async requeueDead(filter: DeadWebhookDeliveryFilter, now: Date): Promise<number> {
    const rows = (await this.manager.query(REQUEUE_DEAD_SQL, [
      now,
      filter.partnerId ?? null,
      filter.since ?? null,
    ])) as Array<{ count: number }>;
    return rows[0]!.count;
  }
}

// The parameters logAndMarkSql's log and streak take before the mark's.
const LOGGED_PARAMETERS = 11;

function sentMark(statusCode: number, now: Date): FinalMark {
  return { status: 'sent', now, set: { last_status_code: statusCode } };
}

function failureMark(statusCode: number | null, error: string, retryAt: Date | null): FailureMark {
  return { error, retryAt, set: { last_status_code: statusCode } };
}

function markOf(mark: AttemptMark): FinalMark | FailureMark {
  return mark.sent
    ? sentMark(mark.statusCode, mark.now)
    : failureMark(mark.statusCode, mark.error, mark.retryAt);
}

/** The first `bytes` of the text's UTF-8, never half a character. */
function cutToBytes(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  return encoded
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

function toDelivery(row: DeliveryRow, exchanges: WebhookExchange[]): WebhookDelivery {
  return {
    id: row.id,
    messageId: row.message_id,
    webhookId: row.webhook_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    occurredAt: row.occurred_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    created: row.created,
    sentAt: row.sent_at,
    exchanges,
  };
}
