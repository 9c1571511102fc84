import type { EntityManager } from 'typeorm';
import { NotificationOutboxEntity, type OutboxPayload } from './notification-outbox.entity';
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
  cdrId: string;
  payload: OutboxPayload;
  attachmentCdrId: string | null;
  /** Including the one that starts now. */
  attempts: number;
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

// Longer messages are cut: last_error is for an operator reading the row, not an archive.
const MAX_ERROR_LENGTH = 2_000;

interface ClaimRow {
  id: string;
  delivery_key: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  cdr_id: string;
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
    return rows
      .map((row) => ({
        id: String(row.id),
        deliveryKey: row.delivery_key,
        channel: row.channel,
        kind: row.kind,
        recipient: row.recipient,
        cdrId: String(row.cdr_id),
        payload: row.payload,
        attachmentCdrId: row.attachment_cdr_id === null ? null : String(row.attachment_cdr_id),
        attempts: row.attempts,
      }))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  async complete(id: string, worker: string, status: 'sent' | 'logged', now: Date): Promise<boolean> {
    return updatedRows(await this.manager.query(COMPLETE_SQL, [id, worker, status, now])).length === 1;
  }

  async fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean> {
    const message = error.slice(0, MAX_ERROR_LENGTH);
    return updatedRows(await this.manager.query(FAIL_SQL, [id, worker, message, retryAt])).length === 1;
  }
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
