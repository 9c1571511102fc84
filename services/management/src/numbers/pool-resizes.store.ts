import type { EntityManager } from 'typeorm';

export const RESIZE_TRIGGERS = ['schedule', 'api', 'cli'] as const;
export type ResizeTrigger = (typeof RESIZE_TRIGGERS)[number];
export type ResizeOutcome = 'grew' | 'shrank' | 'unchanged' | 'failed';

/** The figures a plan was made from, as the audit keeps them (docs/pool-sizing.md, Autoscaling). */
export type ResizePlanFigures = Record<string, string | number | null>;

/** One evaluation of the pool's autoscaling policy, as the audit keeps it. */
export interface PoolResize {
  id: string;
  /** Its transaction's time: also the `pool.resized` deliveries' `occurred_at`. */
  at: Date;
  trigger: ResizeTrigger;
  outcome: ResizeOutcome;
  fromSize: number;
  toSize: number;
  added: string[];
  released: string[];
  reason: string;
  /** The carrier's error code (e.g. Twilio's 21422) or HTTP status; null unless it failed. */
  errorCode: string | null;
  error: string | null;
  plan: ResizePlanFigures;
}

export type NewPoolResize = Omit<PoolResize, 'id' | 'at'>;

/** The pool_resizes table; the numbers feature is its only door. */
export interface PoolResizesStore {
  /** The latest evaluation; null before the first. */
  latest(partnerId: string): Promise<PoolResize | null>;
  /** Newest first, at most `limit`. */
  list(partnerId: string, limit: number): Promise<PoolResize[]>;
  /** The row written at `at` (a `pool.resized` delivery's `occurred_at`). */
  findAt(partnerId: string, at: Date): Promise<PoolResize | null>;
}

interface ResizeRow {
  id: string;
  at: Date;
  trigger: ResizeTrigger;
  outcome: ResizeOutcome;
  from_size: number;
  to_size: number;
  added: string[];
  released: string[];
  reason: string;
  error_code: string | null;
  error: string | null;
  plan: ResizePlanFigures;
}

const COLUMNS = `id, at, trigger, outcome, from_size, to_size, added, released, reason, error_code, error, plan`;

export class TypeormPoolResizesStore implements PoolResizesStore {
  constructor(private readonly manager: EntityManager) {}

  /** Written at the transaction's time, so the `pool.resized` deliveries queued with it find it. */
  async record(partnerId: string, resize: NewPoolResize): Promise<PoolResize> {
    const [row] = (await this.manager.query(
      `INSERT INTO pool_resizes (partner_id, at, trigger, outcome, from_size, to_size, added, released, reason,
              error_code, error, plan)
       VALUES ($1, now(), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING ${COLUMNS}`,
      [
        partnerId,
        resize.trigger,
        resize.outcome,
        resize.fromSize,
        resize.toSize,
        resize.added,
        resize.released,
        resize.reason.slice(0, 500),
        resize.errorCode,
        resize.error === null ? null : resize.error.slice(0, 1000),
        JSON.stringify(resize.plan),
      ],
    )) as ResizeRow[];
    return toResize(row!);
  }

  async latest(partnerId: string): Promise<PoolResize | null> {
    return (await this.list(partnerId, 1))[0] ?? null;
  }

  async list(partnerId: string, limit: number): Promise<PoolResize[]> {
    const rows = (await this.manager.query(
      `SELECT ${COLUMNS} FROM pool_resizes WHERE partner_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
      [partnerId, limit],
    )) as ResizeRow[];
    return rows.map(toResize);
  }

  async findAt(partnerId: string, at: Date): Promise<PoolResize | null> {
    const [row] = (await this.manager.query(
      // A Date holds milliseconds; Postgres keeps microseconds.
      `SELECT ${COLUMNS} FROM pool_resizes
        WHERE partner_id = $1 AND date_trunc('milliseconds', at) = $2 ORDER BY id DESC LIMIT 1`,
      [partnerId, at],
    )) as ResizeRow[];
    return row === undefined ? null : toResize(row);
  }
}

function toResize(row: ResizeRow): PoolResize {
  return {
    id: String(row.id),
    at: row.at,
    trigger: row.trigger,
    outcome: row.outcome,
    fromSize: row.from_size,
    toSize: row.to_size,
    added: row.added,
    released: row.released,
    reason: row.reason,
    errorCode: row.error_code,
    error: row.error,
    plan: row.plan,
  };
}
