import type { EntityManager } from 'typeorm';
import { deferredStatement } from '../db/statement-pipelining';
import { LeasedQueue, type ClaimedRow, type LeasedQueueTable, type QueueBacklog } from '../db/leased-queue';
import type { OutboxStatus } from './notification-outbox.entity';
import { parseOutboxPayload, type OutboxPayload } from './outbox-payload';
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
   * are skipped, never waited for. A row whose payload cannot be read could never be sent: it goes
   * dead at once, saying why, and is not answered.
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

// One statement text whatever the number of rows; in a transaction it goes to Postgres with the
// transaction's next statement (db/statement-pipelining.ts).
const ENQUEUE_SQL = deferredStatement(`
  INSERT INTO notification_outbox (channel, kind, recipient, cdr_id, payload, attachment_cdr_id)
  SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::bigint[], $5::jsonb[], $6::bigint[])`);

const ENQUEUE_UNIQUE_SQL = `
  INSERT INTO notification_outbox (unique_key, channel, kind, recipient, payload, next_attempt_at)
  SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[], $6::timestamptz[])
  ON CONFLICT (unique_key) DO NOTHING
  RETURNING id::text AS id`;

// Longer messages are cut: last_error is for an operator reading the row, not an archive.
const MAX_ERROR_LENGTH = 2_000;

/** A claimed row as the table holds it; channel and kind are held to their values by the table's checks. */
type ClaimRow = {
  id: string;
  attempts: number;
  delivery_key: string;
  channel: NotificationChannel;
  kind: NotificationKind;
  recipient: string;
  cdr_id: string | null;
  payload: unknown;
  attachment_cdr_id: string | null;
};

const NOTIFICATION_QUEUE: LeasedQueueTable = {
  table: 'notification_outbox',
  claimColumns: [
    'o.delivery_key',
    'o.channel',
    'o.kind',
    'o.recipient',
    'o.cdr_id::text AS cdr_id',
    'o.payload',
    'o.attachment_cdr_id::text AS attachment_cdr_id',
  ],
  maxErrorLength: MAX_ERROR_LENGTH,
};

export class TypeormOutboxStore implements OutboxStore, OutboxWriter {
  private readonly queue: LeasedQueue;

  constructor(private readonly manager: EntityManager) {
    this.queue = new LeasedQueue(manager, NOTIFICATION_QUEUE);
  }

  /** The rows waiting for delivery and how long the longest-due has waited (metrics). */
  backlog(): Promise<QueueBacklog> {
    return this.queue.backlog();
  }

  /** Uses the caller's manager, so the rows commit or roll back with the CDR; in the order given. */
  async enqueue(manager: EntityManager, items: NotificationToSend[]): Promise<void> {
    if (items.length === 0) return;
    await manager.query(ENQUEUE_SQL, [
      items.map((item) => item.channel),
      items.map((item) => item.kind),
      items.map((item) => item.recipient),
      items.map((item) => item.cdrId),
      items.map((item) => JSON.stringify(payloadOf(item))),
      items.map((item) => item.attachment?.sourceCdrId ?? null),
    ]);
  }

  async claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedNotification[]> {
    return this.readable(worker, await this.queue.claim({ worker, now, leaseUntil, limit }));
  }

  /** Like `claim`, for the rows named (an operator's "send these now"). */
  async claimIds(
    worker: string,
    ids: readonly string[],
    now: Date,
    leaseUntil: Date,
  ): Promise<ClaimedNotification[]> {
    return this.readable(worker, await this.queue.claimIds(ids, { worker, now, leaseUntil }));
  }

  /** The claimed rows as the worker gets them; one whose payload cannot be read goes dead. */
  private async readable(worker: string, rows: readonly ClaimedRow[]): Promise<ClaimedNotification[]> {
    const claimed: ClaimedNotification[] = [];
    for (const row of rows) {
      let payload: OutboxPayload;
      try {
        payload = parseOutboxPayload(row.payload);
      } catch (error) {
        const problem = `stored notification unreadable: ${(error as Error).message}`;
        await this.queue.fail(row.id, worker, { error: problem, retryAt: null });
        continue;
      }
      claimed.push(toClaimed(row as ClaimRow, payload));
    }
    return claimed;
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

  complete(id: string, worker: string, status: 'sent' | 'logged', now: Date): Promise<boolean> {
    return this.queue.complete(id, worker, { status, now });
  }

  fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean> {
    return this.queue.fail(id, worker, { error, retryAt });
  }
}

function toClaimed(row: ClaimRow, payload: OutboxPayload): ClaimedNotification {
  return {
    id: row.id,
    deliveryKey: row.delivery_key,
    channel: row.channel,
    kind: row.kind,
    recipient: row.recipient,
    cdrId: row.cdr_id,
    payload,
    attachmentCdrId: row.attachment_cdr_id,
    attempts: row.attempts,
  };
}

function payloadOf(item: NotificationToSend): OutboxPayload {
  const payload: OutboxPayload = { text: item.text };
  if (item.subject !== undefined) payload.subject = item.subject;
  if (item.attachment !== undefined) {
    payload.attachment = { filename: item.attachment.filename, contentType: item.attachment.contentType };
  }
  return payload;
}
