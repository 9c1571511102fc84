import type { EntityManager } from 'typeorm';
import type { Paging } from '../validation/paging';
import type { WebhookDelivery, WebhookEvent } from './webhook';
import { TEST_EVENT_TYPE } from './webhook';

/** A delivery a worker holds under its lease, with what it needs to send it. */
export interface ClaimedWebhookDelivery {
  id: string;
  messageId: string;
  webhookId: string;
  partnerId: string;
  eventType: string;
  cdrId: string | null;
  customerId: string | null;
  occurredAt: Date;
  url: string;
  secret: string;
  /** Including the one that starts now. */
  attempts: number;
}

/** Which dead deliveries an operator sends again; every field narrows the set. */
export interface DeadWebhookDeliveryFilter {
  partnerId?: string;
  /** Only deliveries written (with their event) at or after this time. */
  since?: Date;
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
  ): Promise<ClaimedWebhookDelivery[]>;
  /** Final state sent. False when the lease was lost. */
  complete(id: string, worker: string, statusCode: number, now: Date): Promise<boolean>;
  /** Back to pending until `retryAt`, or dead when `retryAt` is null. False when the lease was lost. */
  fail(
    id: string,
    worker: string,
    failure: { statusCode: number | null; error: string },
    retryAt: Date | null,
  ): Promise<boolean>;
}

// Only active webhooks that subscribed to the type get a row; each row draws its own message id,
// which every attempt then carries as `webhook-id`.
const ENQUEUE_SQL = `
  INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, cdr_id, customer_id)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, w.partner_id, e.type, e.cdr_id, e.customer_id
    FROM webhooks w
    JOIN unnest($2::text[], $3::bigint[], $4::bigint[]) AS e(type, cdr_id, customer_id)
      ON e.type = ANY (w.events)
   WHERE w.partner_id = $1 AND w.state = '0'`;

const ENQUEUE_TEST_SQL = `
  INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type)
  VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), $1, $2, '${TEST_EVENT_TYPE}')
  RETURNING id`;

const DELIVERY_COLUMNS = `id::text, message_id, webhook_id::text, event_type, status, attempts, occurred_at,
  last_attempt_at, last_status_code, last_error, next_attempt_at, created, sent_at`;

// Per webhook, the earliest due rows up to its free slots (the index on (webhook_id,
// next_attempt_at) for pending rows serves each lateral probe); then per partner, up to its fair
// share of the worker's slots ($6 divided by one more than the partners with due or in-flight work,
// at least one: a share stays free for the partner whose work arrives next) less what it already
// has in flight, taken in turns: every partner's first row before any partner's second. Rows whose worker died come back first, whatever the slots say. The lock
// re-checks the state, so a row another worker claimed and committed in between is not taken
// twice. A paused webhook's queue waits.
const CLAIM_SQL = `
  WITH busy AS (
    SELECT webhook_id, partner_id, count(*)::int AS n FROM webhook_deliveries
     WHERE status = 'sending' AND locked_until > $1
     GROUP BY webhook_id, partner_id
  ),
  busy_partner AS (
    SELECT partner_id, sum(n)::int AS n FROM busy GROUP BY partner_id
  ),
  share AS (
    SELECT GREATEST(1, $6::int / (count(DISTINCT partner_id) + 1))::int AS n
      FROM webhook_deliveries
     WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until > $1)
  ),
  per_webhook AS (
    SELECT d.id, d.next_attempt_at, w.partner_id
      FROM webhooks w
      LEFT JOIN busy b ON b.webhook_id = w.id
      CROSS JOIN LATERAL (
        SELECT id, next_attempt_at FROM webhook_deliveries
         WHERE webhook_id = w.id AND status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id
         LIMIT GREATEST($5::int - COALESCE(b.n, 0), 0)
      ) d
     WHERE w.state = '0'
  ),
  in_turn AS (
    SELECT c.id, c.next_attempt_at, COALESCE(bp.n, 0) AS partner_busy,
           row_number() OVER (PARTITION BY c.partner_id ORDER BY c.next_attempt_at, c.id) AS turn
      FROM per_webhook c
      LEFT JOIN busy_partner bp ON bp.partner_id = c.partner_id
  ),
  candidates AS (
    (SELECT id, next_attempt_at, turn FROM in_turn, share WHERE turn <= share.n - partner_busy)
    UNION ALL
    (SELECT id, locked_until, 0 FROM webhook_deliveries WHERE status = 'sending' AND locked_until <= $1)
    ORDER BY turn, next_attempt_at, id
    LIMIT $2
  ),
  due AS (
    SELECT id FROM webhook_deliveries
     WHERE id IN (SELECT id FROM candidates)
       AND ((status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until <= $1))
     FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries o
     SET status = 'sending', locked_by = $3, locked_until = $4, attempts = o.attempts + 1, last_attempt_at = $1
    FROM due, webhooks w
   WHERE o.id = due.id AND w.id = o.webhook_id
  RETURNING o.id::text, o.message_id, o.webhook_id::text, o.partner_id::text, o.event_type, o.cdr_id::text,
            o.customer_id::text, o.occurred_at, w.url, w.secret, o.attempts`;

// The lease check and the state change are one statement: a worker whose lease was taken over
// cannot overwrite what the new owner does with the row.
const COMPLETE_SQL = `
  UPDATE webhook_deliveries
     SET status = 'sent', sent_at = $3, last_status_code = $4, last_error = NULL,
         locked_by = NULL, locked_until = NULL
   WHERE id = $1 AND status = 'sending' AND locked_by = $2
  RETURNING id`;

const FAIL_SQL = `
  UPDATE webhook_deliveries
     SET status = CASE WHEN $5::timestamptz IS NULL THEN 'dead' ELSE 'pending' END,
         next_attempt_at = COALESCE($5::timestamptz, next_attempt_at),
         last_status_code = $3, last_error = $4, locked_by = NULL, locked_until = NULL
   WHERE id = $1 AND status = 'sending' AND locked_by = $2
  RETURNING id`;

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

interface ClaimRow {
  id: string;
  message_id: string;
  webhook_id: string;
  partner_id: string;
  event_type: string;
  cdr_id: string | null;
  customer_id: string | null;
  occurred_at: Date;
  url: string;
  secret: string;
  attempts: number;
}

export class TypeormWebhookDeliveriesStore implements WebhookDeliveryQueue {
  constructor(private readonly manager: EntityManager) {}

  /** Uses the caller's manager, so the rows commit or roll back with the event's record. */
  async enqueue(manager: EntityManager, partnerId: string, events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    await manager.query(ENQUEUE_SQL, [
      partnerId,
      events.map((event) => event.type),
      events.map((event) => ('cdrId' in event ? event.cdrId : null)),
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
    return toDelivery(delivery!);
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
    return { deliveries: rows.map(toDelivery), total: counted!.total };
  }

  async claim(
    worker: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
    perWebhook: number,
    slots: number,
  ): Promise<ClaimedWebhookDelivery[]> {
    const rows = updatedRows<ClaimRow>(
      await this.manager.query(CLAIM_SQL, [now, limit, worker, leaseUntil, perWebhook, slots]),
    );
    return rows
      .map((row) => ({
        id: row.id,
        messageId: row.message_id,
        webhookId: row.webhook_id,
        partnerId: row.partner_id,
        eventType: row.event_type,
        cdrId: row.cdr_id,
        customerId: row.customer_id,
        occurredAt: row.occurred_at,
        url: row.url,
        secret: row.secret,
        attempts: row.attempts,
      }))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  async complete(id: string, worker: string, statusCode: number, now: Date): Promise<boolean> {
    return updatedRows(await this.manager.query(COMPLETE_SQL, [id, worker, now, statusCode])).length === 1;
  }

  async fail(
    id: string,
    worker: string,
    failure: { statusCode: number | null; error: string },
    retryAt: Date | null,
  ): Promise<boolean> {
    const message = failure.error.slice(0, MAX_ERROR_LENGTH);
    return (
      updatedRows(await this.manager.query(FAIL_SQL, [id, worker, failure.statusCode, message, retryAt]))
        .length === 1
    );
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

function toDelivery(row: DeliveryRow): WebhookDelivery {
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
  };
}

/** TypeORM answers an UPDATE … RETURNING with [rows, rowCount]. */
function updatedRows<Row>(result: unknown): Row[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0])) return result[0] as Row[];
  return result as Row[];
}
