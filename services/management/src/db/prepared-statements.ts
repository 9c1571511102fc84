import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import pg from 'pg';
import { StatementPipeline, type WaitingStatement } from './statement-pipelining';

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
 *
 * The same client, in node-postgres' pipeline mode, writes a transaction's statements that nobody
 * waits for together with the next one (db/statement-pipelining.ts).
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

    // node-postgres' query() has many overloads; (text[, values][, callback]) is held back or sent
    // with what waits, and named when it repeats; whatever else comes is sent after what waits.
    override query(...args: unknown[]): never {
      const [config, values, callback] = args;
      if (typeof config !== 'string' || (values !== undefined && !Array.isArray(values))) {
        for (const statement of this.waiting.flush()) this.send(statement).catch(() => undefined);
        return (super.query as (...a: unknown[]) => never)(...args);
      }
      const plan = this.waiting.plan(config, values as unknown[] | undefined);
      if (plan.kind === 'send' && plan.waiting.length === 0) return this.prepared(args);
      const answer =
        plan.kind === 'answer'
          ? Promise.resolve(plan.answer)
          : this.together([...plan.waiting, { text: config, values: values as unknown[] | undefined }]);
      if (typeof callback !== 'function') return answer as never;
      answer.then(
        (result) => (callback as (error: unknown, result?: unknown) => void)(null, result),
        (error: unknown) => (callback as (error: unknown) => void)(error),
      );
      return undefined as never;
    }

    /**
     * The statements written in one go (one system call, one round trip in pipeline mode); the last
     * one's answer, or the first error among them: a statement that waited and failed says more than
     * the aborted transaction the later ones then report (and COMMIT, which then answers ROLLBACK).
     */
    private together(statements: readonly WaitingStatement[]): Promise<unknown> {
      const stream = (this as unknown as { connection: { stream: Writable } }).connection.stream;
      stream.cork();
      let answers: Array<Promise<unknown>>;
      try {
        answers = statements.map((statement) => this.send(statement));
      } finally {
        stream.uncork();
      }
      for (const answer of answers) answer.catch(() => undefined);
      return Promise.all(answers).then((all) => all[all.length - 1]);
    }

    private send(statement: WaitingStatement): Promise<unknown> {
      return this.prepared(
        statement.values === undefined ? [statement.text] : [statement.text, statement.values],
      ) as Promise<unknown>;
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
      super({ ...options, Client: PreparingClient, pipeline: true } as pg.PoolConfig);
    }
  }

  // TypeORM reads Pool, types and the rest from the module object: only the pool differs.
  return Object.assign(Object.create(pg) as typeof pg, { Pool: PreparingPool });
}
