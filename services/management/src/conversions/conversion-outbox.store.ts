import type { OutcomeStatus } from '@trackline/domain';
import type { Cdr } from '../cdrs/cdr';
import type { EntityManager } from 'typeorm';
import { deferredStatement } from '../db/statement-pipelining';
import { LeasedQueue, type LeasedQueueTable, type QueueBacklog } from '../db/leased-queue';
import { deleteRowsOfRemovedRecords } from '../db/rows-of-removed-records';
import type { IntegrationKind, StoredIntegration } from '../integrations/integration';
import { integrationFromRow } from '../integrations/integrations.store';
import type { ConversionToQueue } from './conversion-planner';

/** A conversion a worker holds under its lease. */
export interface ClaimedConversion {
  id: string;
  partnerId: string;
  cdrId: string;
  /** The record's start, kept since it was (older rows: null). */
  cdrStart: Date | null;
  destination: IntegrationKind;
  orderId: string;
  outcome: { status: OutcomeStatus; value: string | null; currency: string | null } | null;
  occurredAt: Date;
  /** Including the one that starts now. */
  attempts: number;
}

/** The state of one row, for the operator and the tests. */
/**
 * A claimed conversion with its integration (the row's lane) as the claim read it, in the same
 * statement: the exporter reads no integration of its own (docs/conversions.md, Delivery).
 */
export interface ConversionToSend extends ClaimedConversion {
  integration: StoredIntegration;
}

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
   * counting the attempt. Each integration is a lane (db/leased-queue.ts, FairShare): a partner
   * gets at most `limit` divided by one more than the partners with work, taken in turns, so one
   * partner's backlog cannot hold up the others; a paused integration's rows wait.
   */
  claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ConversionToSend[]>;
  complete(id: string, worker: string, now: Date): Promise<boolean>;
  /** Back to pending until `retryAt`, or dead when `retryAt` is null. False when the lease was lost. */
  fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean>;
}

// Due from when it happened (or now, for a time ahead of the database's clock), so a worker whose
// clock is the caller's sees it at once. In a transaction it goes to Postgres with the transaction's
// next statement (db/statement-pipelining.ts).
const ENQUEUE_SQL = deferredStatement(`
  INSERT INTO "conversion_outbox" ("partner_id", "cdr_id", "cdr_start", "integration_id", "destination",
    "order_id", "outcome_status", "outcome_value", "outcome_currency", "occurred_at", "next_attempt_at")
  SELECT c.*, least(c."occurred_at", now())
    FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::bigint[], $5::varchar[], $6::varchar[],
                $7::varchar[], $8::numeric[], $9::varchar[], $10::timestamptz[])
      AS c ("partner_id", "cdr_id", "cdr_start", "integration_id", "destination", "order_id",
            "outcome_status", "outcome_value", "outcome_currency", "occurred_at")
  ON CONFLICT ("partner_id", "destination", "order_id") DO NOTHING`);

/** The record a conversion belongs to; its start is kept so the worker reads it from its partition. */
export type ConversionRecord = Pick<Cdr, 'partnerId' | 'id' | 'start'>;

/** A conversion to queue with the record it belongs to. */
export interface QueuedConversion {
  record: ConversionRecord;
  conversion: ConversionToQueue;
}

// Longer messages are cut: last_error is for an operator reading the row, not an archive.
const MAX_ERROR_LENGTH = 2_000;

type Row = Record<string, unknown>;

const CONVERSION_QUEUE: LeasedQueueTable = {
  table: 'conversion_outbox',
  claimColumns: [
    'o.partner_id::text AS partner_id',
    'o.cdr_id::text AS cdr_id',
    'o.cdr_start',
    'o.destination',
    'o.order_id',
    'o.outcome_status',
    'o.outcome_value::text AS outcome_value',
    'o.outcome_currency',
    'o.occurred_at',
  ],
  maxErrorLength: MAX_ERROR_LENGTH,
  attemptedAtColumn: 'last_attempt_at',
  fairShare: {
    laneTable: 'partner_integrations',
    laneColumn: 'integration_id',
    tenantColumn: 'partner_id',
    // A paused integration's queue waits until it is resumed.
    laneActive: `(w.settings->>'paused')::boolean IS NOT TRUE`,
    // The integration the rows are sent with, read with them (ConversionToSend).
    laneClaimColumns: [
      'w.id::text AS integration_id',
      'w.kind AS integration_kind',
      'w.settings AS integration_settings',
      'w.secrets AS integration_secrets',
      'w.modified AS integration_modified',
    ],
  },
};

/** Reads and writes "conversion_outbox"; claims and marks through the one leased-queue helper. */
export class TypeormConversionOutboxStore implements ConversionOutboxQueue {
  private readonly queue: LeasedQueue;

  constructor(private readonly manager: EntityManager) {
    this.queue = new LeasedQueue(manager, CONVERSION_QUEUE);
  }

  /** The rows waiting for delivery and how long the longest-due has waited (metrics). */
  backlog(): Promise<QueueBacklog> {
    return this.queue.backlog();
  }

  /** In the caller's transaction: the rows commit or roll back with the record or outcome. */
  enqueue(record: ConversionRecord, conversions: readonly ConversionToQueue[]): Promise<void> {
    return this.enqueueMany(conversions.map((conversion) => ({ record, conversion })));
  }

  /** Many records' conversions in one statement (a batch of call records, docs/cdrs.md, "Batches"). */
  async enqueueMany(queued: readonly QueuedConversion[]): Promise<void> {
    if (queued.length === 0) return;
    await this.manager.query(ENQUEUE_SQL, [
      queued.map((q) => q.record.partnerId),
      queued.map((q) => q.record.id),
      queued.map((q) => q.record.start),
      queued.map((q) => q.conversion.integrationId),
      queued.map((q) => q.conversion.destination),
      queued.map((q) => q.conversion.orderId),
      queued.map((q) => q.conversion.outcome?.status ?? null),
      queued.map((q) => q.conversion.outcome?.value ?? null),
      queued.map((q) => q.conversion.outcome?.currency ?? null),
      queued.map((q) => q.conversion.occurredAt),
    ]);
  }

  /**
   * The rows whose call record no longer exists (removed by the data lifecycle or erased), sent or
   * not: a conversion of a call past its retention is not sent, and its click ids go with it.
   */
  deleteOrphaned(): Promise<number> {
    return deleteRowsOfRemovedRecords(this.manager, 'conversion_outbox');
  }

  async claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ConversionToSend[]> {
    // No lane limit of its own: a partner's share is the bound (GA4 events go one by one, Google
    // Ads conversions in one upload per partner).
    const { rows } = await this.queue.claimFair({
      worker,
      now,
      leaseUntil,
      limit,
      perLane: limit,
      slots: limit,
    });
    return rows.map((row) => ({
      ...toClaimed(row),
      integration: integrationFromRow({
        id: row.integration_id,
        kind: row.integration_kind,
        settings: row.integration_settings,
        secrets: row.integration_secrets,
        modified: row.integration_modified,
      }),
    }));
  }

  complete(id: string, worker: string, now: Date): Promise<boolean> {
    return this.queue.complete(id, worker, { status: 'sent', now });
  }

  fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean> {
    return this.queue.fail(id, worker, { error, retryAt });
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
    cdrStart: (row.cdr_start as Date | null) ?? null,
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
