import { createHash } from 'node:crypto';
import pg from 'pg';
import { StatementPipeline } from './statement-pipelining';

/**
 * Named prepared statements for the statements a process sends again and again
 * (docs/operations.md, Prepared statements).
 *
 * node-postgres sends every parameterized statement unnamed, so Postgres parses and plans it on
 * each execution; for the short statements of a call record and of the outbox workers, that
 * planning was about half of Postgres's time. A text seen `preparedAfter` times in this process is
 * sent as a named statement instead: each connection parses it once, and after a few executions
 * Postgres keeps a generic plan and skips planning. Statements without parameters (BEGIN, COMMIT,
 * DDL) are left alone, and so is whatever comes after a connection's `maxPerConnection` names,
 * which bounds what each backend keeps, whatever SQL is built at run time.
 */
export interface PreparedStatementPolicy {
  /** Executions of one text in this process before it is prepared on the connections that run it. */
  preparedAfter: number;
  /** Named statements one connection keeps at most. */
  maxPerConnection: number;
}

export const DEFAULT_PREPARED_STATEMENTS: PreparedStatementPolicy = {
  preparedAfter: 3,
  maxPerConnection: 200,
};

/** The texts counted so far; forgotten wholesale when this many, so one-off SQL cannot grow it without end. */
const MAX_COUNTED_TEXTS = 10_000;

/**
 * The `pg` module as TypeORM's `driver` option takes it, whose pools' clients name the repeated
 * statements (above). Everything else is node-postgres' own.
 */
export function preparingPostgresDriver(
  policy: PreparedStatementPolicy = DEFAULT_PREPARED_STATEMENTS,
): typeof pg {
  // Per text: how often it was seen while below the threshold, then its name (hashed once).
  const texts = new Map<string, number | string>();
  const statementName = (text: string): string | null => {
    const known = texts.get(text) ?? 0;
    if (typeof known === 'string') return known;
    if (known < policy.preparedAfter) {
      if (texts.size >= MAX_COUNTED_TEXTS) texts.clear();
      texts.set(text, known + 1);
      return null;
    }
    // A name per text: two texts never share one, which node-postgres would refuse.
    const name = `tl_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    texts.set(text, name);
    return name;
  };

  class PreparingClient extends pg.Client {
    private readonly named = new Set<string>();
    private readonly waiting = new StatementPipeline();

    // node-postgres' query() has many overloads; only (text[, values][, callback]) is pipelined or
    // renamed, and whatever else comes is sent after the statements that wait (in pg's own order).
    override query(...args: unknown[]): never {
      const [config, values, callback] = args;
      if (typeof config !== 'string' || (values !== undefined && !Array.isArray(values)))
        return this.afterWaiting(args);
      const plan = this.waiting.plan(config, values as unknown[] | undefined);
      if (plan.kind === 'as-is') return this.prepared(args);
      let answer: Promise<unknown>;
      if (plan.kind === 'answer') answer = Promise.resolve(plan.answer);
      else if (plan.kind === 'joined')
        answer = this.simple(plan.text).then((results) => answersAfter(results, plan.waiting));
      else answer = firstFailure(this.simple(plan.text), this.prepared([config, values]));
      if (typeof callback !== 'function') return answer as never;
      answer.then(
        (result) => (callback as (error: unknown, result?: unknown) => void)(null, result),
        (error: unknown) => (callback as (error: unknown) => void)(error),
      );
      return undefined as never;
    }

    /** A query pipelining does not read (a config object, a cursor): what waits goes first. */
    private afterWaiting(args: unknown[]): never {
      const waiting = this.waiting.flush();
      if (waiting !== null) this.simple(waiting).catch(() => undefined);
      return (super.query as (...a: unknown[]) => never)(...args);
    }

    private simple(text: string): Promise<unknown> {
      return (super.query as (text: string) => Promise<unknown>)(text);
    }

    private prepared(args: unknown[]): never {
      const [config, values, callback] = args;
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = statementName(config);
        if (name !== null && (this.named.has(name) || this.named.size < policy.maxPerConnection)) {
          this.named.add(name);
          return (super.query as (...a: unknown[]) => never)({ name, text: config }, values, callback);
        }
      }
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  }

  class PreparingPool extends pg.Pool {
    constructor(options?: pg.PoolConfig) {
      super({ ...options, Client: PreparingClient } as pg.PoolConfig);
    }
  }

  // TypeORM reads Pool, types and the rest from the module object: only the pool differs.
  return Object.assign(Object.create(pg) as typeof pg, { Pool: PreparingPool });
}

/**
 * The caller's answer in a joined text's answers: what follows the `waiting` statements' (one
 * answer, or several when the caller's own text held several statements).
 */
function answersAfter(results: unknown, waiting: number): unknown {
  const answers = results as unknown[];
  return answers.length === waiting + 1 ? answers[waiting] : answers.slice(waiting);
}

/**
 * The statement's answer, or the error of what was sent before it in the same order: when that
 * fails, the statement's own failure (an aborted transaction) says less.
 */
function firstFailure(before: Promise<unknown>, statement: Promise<unknown>): Promise<unknown> {
  return before.then(
    () => statement,
    (error: unknown) => {
      statement.catch(() => undefined);
      throw error;
    },
  );
}
