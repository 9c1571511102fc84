import type { EntityManager } from 'typeorm';
import { deferredStatement } from '../db/statement-pipelining';
import { LeasedQueue, type LeasedQueueTable, type QueueBacklog } from '../db/leased-queue';
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
  /** The record's start, kept with call events since it was kept (older rows: null). */
  cdrStart: Date | null;
  customerId: string | null;
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
      occurredAt: row.occurred_at,
      url: row.url,
      secret: row.secret,
      showFullAnum: row.show_full_anum,
      attempts: row.attempts,
    }));
    return { deliveries, leftWaiting };
  }

  complete(id: string, worker: string, statusCode: number, now: Date): Promise<boolean> {
    return this.queue.complete(id, worker, { status: 'sent', now, set: { last_status_code: statusCode } });
  }

  fail(
    id: string,
    worker: string,
    failure: { statusCode: number | null; error: string },
    retryAt: Date | null,
  ): Promise<boolean> {
    return this.queue.fail(id, worker, {
      error: failure.error,
      retryAt,
      set: { last_status_code: failure.statusCode },
    });
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
