import type { OutcomeStatus } from '@trackline/domain';
import type { EntityManager } from 'typeorm';
import type { IntegrationKind } from '../integrations/integration';
import type { ConversionToQueue } from './conversion-planner';

/** A conversion a worker holds under its lease. */
export interface ClaimedConversion {
  id: string;
  partnerId: string;
  cdrId: string;
  destination: IntegrationKind;
  orderId: string;
  outcome: { status: OutcomeStatus; value: string | null; currency: string | null } | null;
  occurredAt: Date;
  /** Including the one that starts now. */
  attempts: number;
}

/** The state of one row, for the operator and the tests. */
export interface ConversionRowState {
  id: string;
  cdrId: string;
  destination: IntegrationKind;
  orderId: string;
  status: 'pending' | 'sending' | 'sent' | 'dead';
  attempts: number;
  lastError: string | null;
}

/** What the export worker needs of the outbox; every change after the claim holds only while the lease is ours. */
export interface ConversionOutboxQueue {
  /**
   * Leases up to `limit` due rows (or rows whose worker died) to `worker` until `leaseUntil`,
   * counting the attempt; each partner gets at most its fair share (`limit` divided by the partners
   * with work, at least one), taken in turns, so one partner's backlog cannot hold up the others.
   */
  claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedConversion[]>;
  complete(id: string, worker: string, now: Date): Promise<boolean>;
  /** Back to pending until `retryAt`, or dead when `retryAt` is null. False when the lease was lost. */
  fail(id: string, worker: string, error: string, now: Date, retryAt: Date | null): Promise<boolean>;
}

const ENQUEUE_SQL = `
  INSERT INTO "conversion_outbox" ("partner_id", "cdr_id", "destination", "order_id", "outcome_status",
    "outcome_value", "outcome_currency", "occurred_at", "next_attempt_at")
  SELECT $1::bigint, $2::bigint, c.*, least(c."occurred_at", now())
    FROM unnest($3::varchar[], $4::varchar[], $5::varchar[], $6::numeric[], $7::varchar[], $8::timestamptz[])
      AS c ("destination", "order_id", "outcome_status", "outcome_value", "outcome_currency", "occurred_at")
  ON CONFLICT ("partner_id", "destination", "order_id") DO NOTHING`;

// Due from when it happened (or now, for a time ahead of the database's clock), so a worker whose
// clock is the caller's sees it at once.
// Each partner's due rows ranked by due time; every partner's first before any partner's second,
// and no partner beyond its share. The lock re-checks the state, so a row another worker claimed
// and committed in between is not taken twice.
const CLAIM_SQL = `
  WITH due AS (
    SELECT "id", "partner_id", "next_attempt_at",
           row_number() OVER (PARTITION BY "partner_id" ORDER BY "next_attempt_at", "id") AS "turn"
      FROM "conversion_outbox"
     WHERE ("status" = 'pending' AND "next_attempt_at" <= $1) OR ("status" = 'sending' AND "locked_until" <= $1)
  ), fair AS (
    SELECT "id" FROM due
     WHERE "turn" <= greatest(1, $2::int / (SELECT count(DISTINCT "partner_id") FROM due))
     ORDER BY "turn", "next_attempt_at", "id"
     LIMIT $2
  ), locked AS (
    SELECT o."id" FROM "conversion_outbox" o JOIN fair ON fair."id" = o."id"
     WHERE (o."status" = 'pending' AND o."next_attempt_at" <= $1) OR (o."status" = 'sending' AND o."locked_until" <= $1)
     FOR UPDATE OF o SKIP LOCKED
  )
  UPDATE "conversion_outbox" o
     SET "status" = 'sending', "locked_by" = $3, "locked_until" = $4, "attempts" = o."attempts" + 1,
         "last_attempt_at" = $1
    FROM locked WHERE o."id" = locked."id"
  RETURNING o."id"::text AS "id", o."partner_id"::text AS "partner_id", o."cdr_id"::text AS "cdr_id",
            o."destination", o."order_id", o."outcome_status", o."outcome_value"::text AS "outcome_value",
            o."outcome_currency", o."occurred_at", o."attempts"`;

const COMPLETE_SQL = `
  UPDATE "conversion_outbox"
     SET "status" = 'sent', "sent_at" = $3, "locked_by" = NULL, "locked_until" = NULL, "last_error" = NULL
   WHERE "id" = $1 AND "status" = 'sending' AND "locked_by" = $2
  RETURNING "id"`;

const FAIL_SQL = `
  UPDATE "conversion_outbox"
     SET "status" = CASE WHEN $4::timestamptz IS NULL THEN 'dead' ELSE 'pending' END,
         "next_attempt_at" = COALESCE($4::timestamptz, "next_attempt_at"),
         "last_error" = $3, "locked_by" = NULL, "locked_until" = NULL
   WHERE "id" = $1 AND "status" = 'sending' AND "locked_by" = $2
  RETURNING "id"`;

// Longer messages are cut: last_error is for an operator reading the row, not an archive.
const MAX_ERROR_LENGTH = 2_000;

type Row = Record<string, unknown>;

/** Reads and writes "conversion_outbox". */
export class TypeormConversionOutboxStore implements ConversionOutboxQueue {
  constructor(private readonly manager: EntityManager) {}

  /** In the caller's transaction: the rows commit or roll back with the record or outcome. */
  async enqueue(partnerId: string, cdrId: string, conversions: readonly ConversionToQueue[]): Promise<void> {
    if (conversions.length === 0) return;
    await this.manager.query(ENQUEUE_SQL, [
      partnerId,
      cdrId,
      conversions.map((c) => c.destination),
      conversions.map((c) => c.orderId),
      conversions.map((c) => c.outcome?.status ?? null),
      conversions.map((c) => c.outcome?.value ?? null),
      conversions.map((c) => c.outcome?.currency ?? null),
      conversions.map((c) => c.occurredAt),
    ]);
  }

  async claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedConversion[]> {
    const rows = updatedRows(await this.manager.query(CLAIM_SQL, [now, limit, worker, leaseUntil]));
    return rows.map(toClaimed).sort((a, b) => Number(a.id) - Number(b.id));
  }

  async complete(id: string, worker: string, now: Date): Promise<boolean> {
    return updatedRows(await this.manager.query(COMPLETE_SQL, [id, worker, now])).length > 0;
  }

  async fail(id: string, worker: string, error: string, _now: Date, retryAt: Date | null): Promise<boolean> {
    const rows = updatedRows(
      await this.manager.query(FAIL_SQL, [id, worker, error.slice(0, MAX_ERROR_LENGTH), retryAt]),
    );
    return rows.length > 0;
  }

  /** Dead rows back to pending with a fresh set of attempts (`conversions:requeue-dead`). */
  async requeueDead(filter: { partnerId?: string; since?: Date }, now: Date): Promise<number> {
    const rows = updatedRows(
      await this.manager.query(
        `UPDATE "conversion_outbox" SET "status" = 'pending', "attempts" = 0, "next_attempt_at" = $3
          WHERE "status" = 'dead' AND ($1::bigint IS NULL OR "partner_id" = $1)
            AND ($2::timestamptz IS NULL OR "created" >= $2)
         RETURNING "id"`,
        [filter.partnerId ?? null, filter.since ?? null, now],
      ),
    );
    return rows.length;
  }

  /** The partner's rows for a record, in id order. */
  async forRecord(partnerId: string, cdrId: string): Promise<ConversionRowState[]> {
    const rows: Row[] = await this.manager.query(
      `SELECT "id"::text AS "id", "cdr_id"::text AS "cdr_id", "destination", "order_id", "status",
              "attempts", "last_error"
         FROM "conversion_outbox" WHERE "partner_id" = $1 AND "cdr_id" = $2 ORDER BY "id"`,
      [partnerId, cdrId],
    );
    return rows.map((row) => ({
      id: row.id as string,
      cdrId: row.cdr_id as string,
      destination: row.destination as IntegrationKind,
      orderId: row.order_id as string,
      status: row.status as ConversionRowState['status'],
      attempts: row.attempts as number,
      lastError: (row.last_error as string | null) ?? null,
    }));
  }
}

function toClaimed(row: Row): ClaimedConversion {
  const status = (row.outcome_status as OutcomeStatus | null) ?? null;
  return {
    id: row.id as string,
    partnerId: row.partner_id as string,
    cdrId: row.cdr_id as string,
    destination: row.destination as IntegrationKind,
    orderId: row.order_id as string,
    outcome:
      status === null
        ? null
        : {
            status,
            value: (row.outcome_value as string | null) ?? null,
            currency: (row.outcome_currency as string | null) ?? null,
          },
    occurredAt: row.occurred_at as Date,
    attempts: row.attempts as number,
  };
}

/** TypeORM answers an UPDATE … RETURNING as [rows, count]. */
function updatedRows(result: unknown): Row[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0])) return result[0] as Row[];
  return result as Row[];
}
