import type { EntityManager } from 'typeorm';
import {
  NotificationOutboxEntity,
  type OutboxPayload,
  type OutboxStatus,
} from './notification-outbox.entity';
import type {
  NotificationChannel,
  NotificationKind,
  NotificationToSend,
  OutboxWriter,
} from './outbox-writer';

/** A row a worker holds under its lease. */
export interface ClaimedNotification {
  id: string;
  deliveryKey: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  /** Null for a monthly report. */
  cdrId: string | null;
  payload: OutboxPayload;
  attachmentCdrId: string | null;
  /** Including the one that starts now. */
  attempts: number;
}

/** A message that may exist once only: a second enqueue of its `uniqueKey` adds nothing. */
export interface UniqueNotificationToSend {
  uniqueKey: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  payload: OutboxPayload;
  /** When it is due. */
  notBefore: Date;
}

/** The state of a row, for an operator command that sent it and reports on it. */
export interface OutboxRowState {
  id: string;
  uniqueKey: string | null;
  status: OutboxStatus;
  lastError: string | null;
}

/** What the worker needs of the outbox; every change after the claim holds only while the lease is ours. */
export interface OutboxStore {
  /**
   * Takes up to `limit` rows that are due, or whose lease ran out (their worker died), and leases
   * them to `worker` until `leaseUntil`, counting the attempt. Rows another transaction is claiming
   * are skipped, never waited for.
   */
  claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotification[]>;
  /** Final state sent or logged. False when the lease was lost (another worker took the row over). */
  complete(id: string, worker: string, status: 'sent' | 'logged', now: Date): Promise<boolean>;
  /** Back to pending until `retryAt`, or dead when `retryAt` is null. False when the lease was lost. */
  fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean>;
  /** Like `claim`, for the rows named, whatever their due time (an operator's "send now"). */
  claimIds?(
    worker: string,
    ids: readonly string[],
    now: Date,
    leaseUntil: Date,
  ): Promise<ClaimedNotification[]>;
}

const CLAIM_SQL = `
  WITH due AS (
    SELECT id FROM notification_outbox
    WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until <= $1)
    ORDER BY next_attempt_at, id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  UPDATE notification_outbox o
  SET status = 'sending', locked_by = $3, locked_until = $4, attempts = o.attempts + 1
  FROM due WHERE o.id = due.id
  RETURNING o.id, o.delivery_key, o.channel, o.kind, o.recipient, o.cdr_id, o.payload,
            o.attachment_cdr_id, o.attempts`;

// The lease check and the state change are one statement: a worker whose lease was taken over
// cannot overwrite what the new owner does with the row.
const COMPLETE_SQL = `
  UPDATE notification_outbox
  SET status = $3, sent_at = $4, locked_by = NULL, locked_until = NULL, last_error = NULL
  WHERE id = $1 AND status = 'sending' AND locked_by = $2
  RETURNING id`;

const FAIL_SQL = `
  UPDATE notification_outbox
  SET status = CASE WHEN $4::timestamptz IS NULL THEN 'dead' ELSE 'pending' END,
      next_attempt_at = COALESCE($4::timestamptz, next_attempt_at),
      last_error = $3, locked_by = NULL, locked_until = NULL
  WHERE id = $1 AND status = 'sending' AND locked_by = $2
  RETURNING id`;

// The rows named, whatever their due time, when they wait or their worker's lease ran out: an
// operator command sends them now (a row a live worker holds is left to it).
const CLAIM_IDS_SQL = `
  WITH chosen AS (
    SELECT id FROM notification_outbox
    WHERE id = ANY($1::bigint[])
      AND (status = 'pending' OR (status = 'sending' AND locked_until <= $2))
    ORDER BY id
    FOR UPDATE SKIP LOCKED
  )
  UPDATE notification_outbox o
  SET status = 'sending', locked_by = $3, locked_until = $4, attempts = o.attempts + 1
  FROM chosen WHERE o.id = chosen.id
  RETURNING o.id, o.delivery_key, o.channel, o.kind, o.recipient, o.cdr_id, o.payload,
            o.attachment_cdr_id, o.attempts`;

const ENQUEUE_UNIQUE_SQL = `
  INSERT INTO notification_outbox (unique_key, channel, kind, recipient, payload, next_attempt_at)
  SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[], $6::timestamptz[])
  ON CONFLICT (unique_key) DO NOTHING
  RETURNING id::text AS id`;

// Longer messages are cut: last_error is for an operator reading the row, not an archive.
const MAX_ERROR_LENGTH = 2_000;

interface ClaimRow {
  id: string;
  delivery_key: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  cdr_id: string | null;
  payload: OutboxPayload;
  attachment_cdr_id: string | null;
  attempts: number;
}

export class TypeormOutboxStore implements OutboxStore, OutboxWriter {
  constructor(private readonly manager: EntityManager) {}

  /** Uses the caller's manager, so the rows commit or roll back with the CDR. */
  async enqueue(manager: EntityManager, items: NotificationToSend[]): Promise<void> {
    if (items.length === 0) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(NotificationOutboxEntity)
      .values(items.map(toRow))
      .execute();
  }

  async claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotification[]> {
    const rows = updatedRows<ClaimRow>(await this.manager.query(CLAIM_SQL, [now, limit, worker, leaseUntil]));
    return rows.map(toClaimed).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** Like `claim`, for the rows named (an operator's "send these now"). */
  async claimIds(
    worker: string,
    ids: readonly string[],
    now: Date,
    leaseUntil: Date,
  ): Promise<ClaimedNotification[]> {
    if (ids.length === 0) return [];
    const rows = updatedRows<ClaimRow>(
      await this.manager.query(CLAIM_IDS_SQL, [ids, now, worker, leaseUntil]),
    );
    return rows.map(toClaimed).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /**
   * Adds the messages whose key is not in the outbox yet, in one statement, and answers the ids of
   * the rows it added. Concurrent callers with the same key (replicas, an operator command) add
   * one row between them: the unique constraint decides.
   */
  async enqueueUnique(items: readonly UniqueNotificationToSend[]): Promise<string[]> {
    if (items.length === 0) return [];
    const rows: Array<{ id: string }> = await this.manager.query(ENQUEUE_UNIQUE_SQL, [
      items.map((item) => item.uniqueKey),
      items.map((item) => item.channel),
      items.map((item) => item.kind),
      items.map((item) => item.recipient),
      items.map((item) => JSON.stringify(item.payload)),
      items.map((item) => item.notBefore),
    ]);
    return rows.map((row) => row.id);
  }

  /** The rows with these keys, in key order. */
  async findByUniqueKeys(keys: readonly string[]): Promise<OutboxRowState[]> {
    if (keys.length === 0) return [];
    return this.states(`unique_key = ANY($1::varchar[]) ORDER BY unique_key`, [keys]);
  }

  /** The rows with these ids, in id order (the column's: the output's id is text, where 10 sorts before 9). */
  async findByIds(ids: readonly string[]): Promise<OutboxRowState[]> {
    if (ids.length === 0) return [];
    return this.states(`id = ANY($1::bigint[]) ORDER BY notification_outbox.id`, [ids]);
  }

  private async states(condition: string, parameters: unknown[]): Promise<OutboxRowState[]> {
    const rows: Array<{
      id: string;
      unique_key: string | null;
      status: OutboxStatus;
      last_error: string | null;
    }> = await this.manager.query(
      `SELECT id::text AS id, unique_key, status, last_error FROM notification_outbox WHERE ${condition}`,
      parameters,
    );
    return rows.map((row) => ({
      id: row.id,
      uniqueKey: row.unique_key,
      status: row.status,
      lastError: row.last_error,
    }));
  }

  async complete(id: string, worker: string, status: 'sent' | 'logged', now: Date): Promise<boolean> {
    return updatedRows(await this.manager.query(COMPLETE_SQL, [id, worker, status, now])).length === 1;
  }

  async fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean> {
    const message = error.slice(0, MAX_ERROR_LENGTH);
    return updatedRows(await this.manager.query(FAIL_SQL, [id, worker, message, retryAt])).length === 1;
  }
}

function toClaimed(row: ClaimRow): ClaimedNotification {
  return {
    id: String(row.id),
    deliveryKey: row.delivery_key,
    channel: row.channel,
    kind: row.kind,
    recipient: row.recipient,
    cdrId: row.cdr_id === null ? null : String(row.cdr_id),
    payload: row.payload,
    attachmentCdrId: row.attachment_cdr_id === null ? null : String(row.attachment_cdr_id),
    attempts: row.attempts,
  };
}

function toRow(item: NotificationToSend): Partial<NotificationOutboxEntity> {
  const payload: OutboxPayload = { text: item.text };
  if (item.subject !== undefined) payload.subject = item.subject;
  if (item.attachment !== undefined) {
    payload.attachment = { filename: item.attachment.filename, contentType: item.attachment.contentType };
  }
  return {
    channel: item.channel,
    kind: item.kind,
    recipient: item.recipient,
    cdrId: item.cdrId,
    payload,
    attachmentCdrId: item.attachment?.sourceCdrId ?? null,
  };
}

/** TypeORM answers an UPDATE … RETURNING with [rows, rowCount]. */
function updatedRows<Row>(result: unknown): Row[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0])) return result[0] as Row[];
  return result as Row[];
}
