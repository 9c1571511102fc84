import type { EntityManager } from 'typeorm';

/**
 * An outbox table worked off by leases (docs/architecture.md, Background work). Every such table
 * has these columns: `id` (bigint identity), `status` ('pending', 'sending', 'dead' and the final
 * states the table's own check allows), `attempts` integer, `next_attempt_at` timestamptz,
 * `last_error` text, `locked_by` varchar, `locked_until` timestamptz, `sent_at` timestamptz, `created` timestamptz;
 * an index on `next_attempt_at` where pending and one on `locked_until` where sending.
 */
export interface LeasedQueueTable {
  table: string;
  /** What a claim answers besides `id` and `attempts`: expressions on the claimed row `o`, e.g. `o.payload`. */
  claimColumns: readonly string[];
  /** `last_error` is cut to this many characters: it is for a reader, not an archive. */
  maxErrorLength: number;
  /** Set to the claim's time on every claim, e.g. `last_attempt_at`. */
  attemptedAtColumn?: string;
  /** Rows wait in lanes of their own, shared fairly among tenants (see FairShare). */
  fairShare?: FairShare;
}

/**
 * Rows belong to lanes (a webhook), each lane to a tenant (a partner). A claim takes at most
 * `perLane` in flight per lane, so one slow endpoint cannot take every slot, and at most a fair
 * share of the worker's `slots` per tenant (`slots` divided by one more than the tenants with work,
 * at least one: a share stays free for the tenant whose work arrives next), taken in turns, so
 * tenants whose lanes hang cannot hold up the others. Only active lanes are served.
 */
export interface FairShare {
  /** The table of the lanes, read as `w`; its `id` is what `laneColumn` names. */
  laneTable: string;
  /** The queue's column naming the row's lane. */
  laneColumn: string;
  /** The tenant column, in both the queue and the lane table. */
  tenantColumn: string;
  /** Which lanes are served, a condition on the lane row `w` (e.g. `w.state = '0'`); another lane's rows wait. */
  laneActive: string;
  /** What a claim answers of the lane, on `w`. */
  laneClaimColumns: readonly string[];
}

export interface ClaimRequest {
  worker: string;
  now: Date;
  leaseUntil: Date;
  limit: number;
}

export interface FairClaimRequest extends ClaimRequest {
  /** Rows in flight at once per lane. */
  perLane: number;
  /** The worker's slots the tenants share. */
  slots: number;
}

/** What a fair claim answers. */
export interface FairClaim {
  /** In id order. */
  rows: ClaimedRow[];
  /**
   * Due rows were left for want of a slot: a lane's or a tenant's in flight (this worker's or
   * another's), or the claim's limit. A worker whose deliveries free slots claims again only then
   * (docs/webhooks.md, How it runs); rows committed later ring the bell, and the poll finds the rest.
   */
  leftWaiting: boolean;
}

/**
 * What waits in a queue (docs/operations.md, Metrics): `pending`, the rows not delivered yet
 * (waiting, in backoff or leased) in lanes that are served; `oldestDueSeconds`, how long the row
 * that has waited longest for a worker has waited since it fell due (a pending row past its
 * `next_attempt_at`, a leased one past its lease), 0 when none is due. Rows in backoff are not
 * due: a receiver that keeps failing is its partner's matter, a worker that does not keep up is ours.
 */
export interface QueueBacklog {
  pending: number;
  oldestDueSeconds: number;
}

/** The row a claim answers: `id` as text, `attempts` including the attempt that starts now, and the table's columns. */
export type ClaimedRow = { id: string; attempts: number } & Record<string, unknown>;

/** Extra columns a final mark sets, by name; the values are query parameters. */
export type ColumnValues = Readonly<Record<string, unknown>>;

/** A row done: its final state (sent, logged, …) at `now`. */
export interface FinalMark {
  status: string;
  now: Date;
  set?: ColumnValues;
}

/** A row that failed: pending again at `retryAt`, or dead when null, saying why. */
export interface FailureMark {
  error: string;
  retryAt: Date | null;
  set?: ColumnValues;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The SQL of a leased queue, one table's worth. Rows are claimed under FOR UPDATE SKIP LOCKED with
 * a lease (`locked_by` until `locked_until`), counting the attempt, so two workers never hold a row
 * at once and one that dies leaves its rows to be taken again when the lease runs out; every mark
 * checks the lease in the same statement, so a worker whose lease was taken over changes nothing.
 * The retry policy (when, and when dead) is the caller's: `fail` is told `retryAt` or null.
 */
export class LeasedQueue {
  private readonly claimSql: string;
  private readonly claimIdsSql: string;
  private readonly backlogSql: string;

  /** `spec` is best a module constant: its SQL is built once per spec, not per queue. */
  constructor(
    private readonly manager: EntityManager,
    private readonly spec: LeasedQueueTable,
  ) {
    ({ claimSql: this.claimSql, claimIdsSql: this.claimIdsSql } = queueSql(spec));
    this.backlogSql = backlogSql(spec);
  }

  /** What waits, read with the database's clock (QueueBacklog); a metrics scrape reads it. */
  async backlog(): Promise<QueueBacklog> {
    const [row] = (await this.manager.query(this.backlogSql)) as Array<{ pending: number; oldest: number }>;
    return { pending: Number(row?.pending ?? 0), oldestDueSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
  }

  /**
   * Leases up to `limit` rows that are due, or whose lease ran out (their worker died), in due
   * order. Rows another transaction is claiming are skipped, never waited for. In id order.
   */
  async claim(request: ClaimRequest): Promise<ClaimedRow[]> {
    if (this.spec.fairShare !== undefined) throw new Error(`${this.spec.table} is claimed with claimFair`);
    const { now, limit, worker, leaseUntil } = request;
    return byId(updatedRows(await this.manager.query(this.claimSql, [now, limit, worker, leaseUntil])));
  }

  /** Like `claim`, within each lane's and tenant's share (FairShare); rows whose worker died come back first. */
  async claimFair(request: FairClaimRequest): Promise<FairClaim> {
    if (this.spec.fairShare === undefined) throw new Error(`${this.spec.table} has no lanes to share`);
    const { now, limit, worker, leaseUntil, perLane, slots } = request;
    const answer = (await this.manager.query(this.claimSql, [
      now,
      limit,
      worker,
      leaseUntil,
      perLane,
      slots,
    ])) as Array<ClaimedRow & { left_waiting: boolean }>;
    // One row answers even when nothing was claimed: its id is null.
    const rows = answer
      .filter((row) => row.id !== null)
      .map(({ left_waiting: _, ...row }) => row as ClaimedRow);
    return { rows: byId(rows), leftWaiting: answer[0]?.left_waiting === true };
  }

  /**
   * Leases the rows named, whatever their due time, when they wait or their worker's lease ran
   * out (a row a live worker holds is left to it): an operator command sends them now.
   */
  async claimIds(ids: readonly string[], request: Omit<ClaimRequest, 'limit'>): Promise<ClaimedRow[]> {
    if (ids.length === 0) return [];
    const { now, worker, leaseUntil } = request;
    return byId(updatedRows(await this.manager.query(this.claimIdsSql, [ids, now, worker, leaseUntil])));
  }

  /** Final state `status` (sent, logged, …) at `now`. False when the lease was lost. */
  async complete(id: string, worker: string, final: FinalMark): Promise<boolean> {
    const mark = this.markStatement(id, worker, final, 1);
    return updatedRows(await this.manager.query(`${mark.sql} RETURNING id`, mark.values)).length === 1;
  }

  /**
   * Back to pending until `retryAt`, or dead when `retryAt` is null, saying why in `last_error`.
   * False when the lease was lost.
   */
  async fail(id: string, worker: string, failure: FailureMark): Promise<boolean> {
    const mark = this.markStatement(id, worker, failure, 1);
    return updatedRows(await this.manager.query(`${mark.sql} RETURNING id`, mark.values)).length === 1;
  }

  /**
   * The UPDATE of `complete` (a FinalMark) or `fail` (a FailureMark), lease checked, without its
   * RETURNING, its parameters numbered from `$first`: for a statement that does more in the same
   * round trip and transaction (the webhook attempt's log, webhooks/webhook-deliveries.store.ts).
   */
  markStatement(
    id: string,
    worker: string,
    mark: FinalMark | FailureMark,
    first: number,
  ): { sql: string; values: unknown[] } {
    const $ = (n: number) => `$${first + n - 1}`;
    const owned = `WHERE id = ${$(1)} AND status = 'sending' AND locked_by = ${$(2)}`;
    if ('status' in mark) {
      const extra = assignments(mark.set, first + 4);
      return {
        sql: `UPDATE ${this.spec.table}
         SET status = ${$(3)}, sent_at = ${$(4)}, last_error = NULL, locked_by = NULL, locked_until = NULL${extra.sql}
       ${owned}`,
        values: [id, worker, mark.status, mark.now, ...extra.values],
      };
    }
    const extra = assignments(mark.set, first + 4);
    const retryAt = `${$(4)}::timestamptz`;
    return {
      sql: `UPDATE ${this.spec.table}
         SET status = CASE WHEN ${retryAt} IS NULL THEN 'dead' ELSE 'pending' END,
             next_attempt_at = COALESCE(${retryAt}, next_attempt_at),
             last_error = ${$(3)}, locked_by = NULL, locked_until = NULL${extra.sql}
       ${owned}`,
      values: [id, worker, mark.error.slice(0, this.spec.maxErrorLength), mark.retryAt, ...extra.values],
    };
  }
}

function returning(spec: LeasedQueueTable, more: readonly string[] = []): string {
  return ['o.id::text AS id', 'o.attempts', ...spec.claimColumns, ...more].join(', ');
}

/** `now` is the parameter that holds the claim's time. */
function leaseSet(spec: LeasedQueueTable, now: string): string {
  const stamp = spec.attemptedAtColumn === undefined ? '' : `, ${spec.attemptedAtColumn} = ${now}`;
  return `status = 'sending', locked_by = $3, locked_until = $4, attempts = o.attempts + 1${stamp}`;
}

// A queue is built per unit of work (composition/stores-on-manager.ts), on every call record's
// transaction: its SQL, several kB of text, is kept per table spec rather than built each time.
const sqlOfSpec = new WeakMap<LeasedQueueTable, { claimSql: string; claimIdsSql: string }>();

function queueSql(spec: LeasedQueueTable): { claimSql: string; claimIdsSql: string } {
  let sql = sqlOfSpec.get(spec);
  if (sql === undefined) {
    for (const name of [spec.table, spec.attemptedAtColumn ?? 'id']) checkIdentifier(name);
    if (spec.fairShare !== undefined) {
      const { laneTable, laneColumn, tenantColumn } = spec.fairShare;
      for (const name of [laneTable, laneColumn, tenantColumn]) checkIdentifier(name);
    }
    sql = {
      claimSql: spec.fairShare === undefined ? dueClaimSql(spec) : fairClaimSql(spec, spec.fairShare),
      claimIdsSql: claimIdsSql(spec),
    };
    sqlOfSpec.set(spec, sql);
  }
  return sql;
}

/** $1 now, $2 limit, $3 worker, $4 lease end. */
function dueClaimSql(spec: LeasedQueueTable): string {
  return `
    WITH due AS (
      SELECT id FROM ${spec.table}
      WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND locked_until <= $1)
      ORDER BY next_attempt_at, id
      LIMIT $2
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${spec.table} o
    SET ${leaseSet(spec, '$1')}
    FROM due WHERE o.id = due.id
    RETURNING ${returning(spec)}`;
}

/** $1 ids, $2 now, $3 worker, $4 lease end. */
function claimIdsSql(spec: LeasedQueueTable): string {
  return `
    WITH chosen AS (
      SELECT id FROM ${spec.table}
      WHERE id = ANY($1::bigint[])
        AND (status = 'pending' OR (status = 'sending' AND locked_until <= $2))
      ORDER BY id
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${spec.table} o
    SET ${leaseSet(spec, '$2')}
    FROM chosen WHERE o.id = chosen.id
    RETURNING ${returning(spec)}`;
}

// Per lane, the earliest due rows up to its free slots (the index on (lane, next_attempt_at, id)
// for pending rows serves each lateral probe); then per tenant, up to its fair share of the
// worker's slots less what it already has in flight, taken in turns: every tenant's first row
// before any tenant's second. Rows whose worker died come back first, whatever the slots say.
//
// Each step reads only what it answers, whatever the backlog: every lane's probe walks its index in
// claim order and stops one row after its free slots (that row only tells that more wait), and the
// tenants with work are those the probes found plus those with rows in flight (a lane that is
// switched off offers no work), not every due row read. The chosen rows are locked by their ids
// alone; the UPDATE then checks their state on the row it locked, so a row another worker claimed
// and committed in between is not taken twice (docs/webhooks.md, How it runs).
//
// The answer has one row more, whose id is null, saying whether due rows were left for want of a
// slot: a lane's, a tenant's share or the claim's limit (FairClaim.leftWaiting).
/** $1 now, $2 limit, $3 worker, $4 lease end, $5 per lane, $6 slots. */
function fairClaimSql(spec: LeasedQueueTable, share: FairShare): string {
  const { table } = spec;
  const { laneTable, laneColumn: lane, tenantColumn: tenant, laneActive } = share;
  return `
    WITH busy AS (
      SELECT ${lane}, ${tenant}, count(*)::int AS n FROM ${table}
       WHERE status = 'sending' AND locked_until > $1
       GROUP BY ${lane}, ${tenant}
    ),
    busy_tenant AS (
      SELECT ${tenant}, sum(n)::int AS n FROM busy GROUP BY ${tenant}
    ),
    probed AS (
      SELECT d.id, d.next_attempt_at, w.${tenant}, d.lane_turn > GREATEST($5::int - COALESCE(b.n, 0), 0) AS over_lane
        FROM ${laneTable} w
        LEFT JOIN busy b ON b.${lane} = w.id
        CROSS JOIN LATERAL (
          SELECT id, next_attempt_at, row_number() OVER (ORDER BY next_attempt_at, id) AS lane_turn
            FROM ${table}
           WHERE ${lane} = w.id AND status = 'pending' AND next_attempt_at <= $1
           ORDER BY next_attempt_at, id
           LIMIT GREATEST($5::int - COALESCE(b.n, 0), 0) + 1
        ) d
       WHERE ${laneActive}
    ),
    per_lane AS (
      SELECT id, next_attempt_at, ${tenant} FROM probed WHERE NOT over_lane
    ),
    share AS (
      SELECT GREATEST(1, $6::int / (count(DISTINCT t.${tenant}) + 1))::int AS n
        FROM (SELECT ${tenant} FROM per_lane UNION ALL SELECT ${tenant} FROM busy) t
    ),
    in_turn AS (
      SELECT c.id, c.next_attempt_at, COALESCE(bt.n, 0) AS tenant_busy,
             row_number() OVER (PARTITION BY c.${tenant} ORDER BY c.next_attempt_at, c.id) AS turn
        FROM per_lane c
        LEFT JOIN busy_tenant bt ON bt.${tenant} = c.${tenant}
    ),
    expired AS (
      SELECT id, locked_until FROM ${table} WHERE status = 'sending' AND locked_until <= $1
    ),
    eligible AS (
      SELECT id, next_attempt_at, turn FROM in_turn, share WHERE turn <= share.n - tenant_busy
      UNION ALL
      SELECT id, locked_until, 0 FROM expired
    ),
    candidates AS (
      SELECT id FROM eligible ORDER BY turn, next_attempt_at, id LIMIT $2
    ),
    left_waiting AS (
      -- Nothing due at all answers at once, without the probes (as the UPDATE below does).
      SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM ${table} WHERE status = 'pending' AND next_attempt_at <= $1)
         AND NOT EXISTS (SELECT 1 FROM expired) THEN false
        ELSE EXISTS (SELECT 1 FROM probed WHERE over_lane)
          OR EXISTS (SELECT 1 FROM in_turn, share WHERE turn > share.n - tenant_busy)
          OR (SELECT count(*) FROM eligible) > $2
      END AS left_waiting
    ),
    due AS (
      SELECT id FROM ${table} WHERE id = ANY (ARRAY(SELECT id FROM candidates)) FOR UPDATE SKIP LOCKED
    ),
    claimed AS (
      UPDATE ${table} o
         SET ${leaseSet(spec, '$1')}
        FROM due, ${laneTable} w
       WHERE o.id = due.id AND w.id = o.${lane}
         AND ((o.status = 'pending' AND o.next_attempt_at <= $1) OR (o.status = 'sending' AND o.locked_until <= $1))
      RETURNING ${returning(spec, share.laneClaimColumns)}
    )
    SELECT claimed.*, left_waiting.left_waiting FROM left_waiting LEFT JOIN claimed ON true`;
}

function assignments(
  set: ColumnValues | undefined,
  firstParameter: number,
): { sql: string; values: unknown[] } {
  const entries = Object.entries(set ?? {});
  for (const [column] of entries) checkIdentifier(column);
  const sql = entries.map(([column], index) => `, ${column} = $${firstParameter + index}`).join('');
  return { sql, values: entries.map(([, value]) => value) };
}

// Names are written into the SQL: they come from code, and are checked so a mistake cannot inject.
function checkIdentifier(name: string): void {
  if (!IDENTIFIER.test(name)) throw new Error(`not a column or table name: ${name}`);
}

// The claim's UPDATE answers in no particular order; workers and tests see the rows oldest first
// (the id's number: as text "10" would sort before "9").
function byId(rows: ClaimedRow[]): ClaimedRow[] {
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** TypeORM answers an UPDATE … RETURNING with [rows, rowCount]. */
function updatedRows(result: unknown): ClaimedRow[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]))
    return result[0] as ClaimedRow[];
  return result as ClaimedRow[];
}

/** One pass over the not-yet-delivered rows: the due indexes (pending) and the lease index (sending). */
function backlogSql(spec: LeasedQueueTable): string {
  const share = spec.fairShare;
  // A paused lane's rows wait by the partner's choice: neither counted nor aged.
  const served =
    share === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM ${share.laneTable} w WHERE w.id = o.${share.laneColumn} AND ${share.laneActive})`;
  return `
    SELECT count(*)::int AS pending,
           COALESCE(extract(epoch FROM now() - min(
             CASE WHEN o.status = 'pending' THEN o.next_attempt_at ELSE o.locked_until END
           ) FILTER (WHERE (o.status = 'pending' AND o.next_attempt_at <= now())
                        OR (o.status = 'sending' AND o.locked_until <= now()))), 0)::float8 AS oldest
      FROM ${spec.table} o
     WHERE o.status IN ('pending', 'sending') ${served}`;
}
