import { inlineParameters } from './sql-literals';

/**
 * Fewer round trips in a transaction (docs/operations.md, "Statements sent together").
 *
 * node-postgres sends one statement and waits for its answer before the next, so a call record's
 * transaction (START TRANSACTION, the insert, the outbox rows, COMMIT) cost a round trip to
 * Postgres each: on a machine whose cores sleep between requests, most of a call's time. Here the
 * statements whose answers nobody waits for go together with the next one, as one text in the
 * simple protocol (parameters written as literals, sql-literals.ts):
 * - START TRANSACTION waits for the transaction's first statement (and is never sent for a
 *   transaction that sends nothing);
 * - a statement marked `deferredStatement` (an outbox insert) is answered at once, with no rows,
 *   and waits for the next statement, at the latest COMMIT;
 * - a statement marked `joinableStatement`, or one without parameters, takes whatever waits with
 *   it; any other statement is sent as before, after what waits was sent on its own.
 * A deferred statement that fails fails the statement it went with, and so the transaction, as it
 * would have failed it by itself; ROLLBACK drops what waits.
 */
export function deferredStatement(sql: string): string {
  return `${DEFERRED}\n${sql}`;
}

/** Sent as text together with the statements waiting before it (see deferredStatement). */
export function joinableStatement(sql: string): string {
  return `${JOINABLE}\n${sql}`;
}

const DEFERRED = '/* sent with the next statement; no answer awaited */';
const JOINABLE = '/* may carry the statements waiting before it */';

/** What node-postgres answers for a statement answered here: no rows. */
export interface LocalAnswer {
  command: string;
  rowCount: number | null;
  oid: null;
  rows: never[];
  fields: never[];
}

export type PipelinePlan =
  /** Answered here; nothing is sent. */
  | { kind: 'answer'; answer: LocalAnswer }
  /** The statement as it came (no statement waits). */
  | { kind: 'as-is' }
  /** One simple-protocol text; the caller's answer is what follows the first `waiting` answers. */
  | { kind: 'joined'; text: string; waiting: number }
  /** `text` first (simple protocol), then the statement as it came. */
  | { kind: 'after'; text: string };

/** One connection's waiting statements; `plan` is asked for each statement in the order sent. */
export class StatementPipeline {
  private waiting: string[] = [];
  /** START TRANSACTION waits, or the transaction it began is open: deferred statements may wait. */
  private inTransaction = false;

  plan(text: string, values: readonly unknown[] | undefined): PipelinePlan {
    const parameters = values ?? [];
    if (text === 'START TRANSACTION' && parameters.length === 0 && !this.inTransaction) {
      this.waiting = [text];
      this.inTransaction = true;
      return { kind: 'answer', answer: localAnswer('BEGIN') };
    }
    if (this.inTransaction && text.startsWith(DEFERRED)) {
      this.waiting.push(inlineParameters(text, parameters));
      return { kind: 'answer', answer: localAnswer('INSERT') };
    }
    const ends = (text === 'COMMIT' || text === 'ROLLBACK') && parameters.length === 0;
    if (ends) {
      this.inTransaction = false;
      const waiting = this.take();
      // Postgres never saw the transaction begin: there is nothing to end; ROLLBACK drops what waits.
      const started = waiting[0] !== 'START TRANSACTION';
      if (text === 'ROLLBACK')
        return started ? { kind: 'as-is' } : { kind: 'answer', answer: localAnswer(text) };
      if (waiting.length === 0) return { kind: 'as-is' };
      if (waiting.length === 1 && !started) return { kind: 'answer', answer: localAnswer(text) };
      return { kind: 'joined', text: [...waiting, text].join(';\n'), waiting: waiting.length };
    }
    if (this.waiting.length === 0) return { kind: 'as-is' };
    const waiting = this.take();
    if (parameters.length === 0 || text.startsWith(JOINABLE))
      return {
        kind: 'joined',
        text: [...waiting, inlineParameters(text, parameters)].join(';\n'),
        waiting: waiting.length,
      };
    return { kind: 'after', text: waiting.join(';\n') };
  }

  /** What waits, as one text, for a query `plan` does not read; null when nothing waits. */
  flush(): string | null {
    const waiting = this.take();
    return waiting.length === 0 ? null : waiting.join(';\n');
  }

  private take(): string[] {
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }
}

function localAnswer(command: string): LocalAnswer {
  return { command, rowCount: null, oid: null, rows: [], fields: [] };
}
