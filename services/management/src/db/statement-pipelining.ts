/**
 * Fewer round trips in a transaction (docs/operations.md, "Statements sent together").
 *
 * TypeORM waits for each statement's answer before it sends the next, so a call record's
 * transaction (START TRANSACTION, the insert, the outbox rows, COMMIT) cost a round trip to
 * Postgres each: on a machine whose cores sleep between requests, much of a call's time. The
 * statements whose answers nobody waits for are therefore held back and written together with the
 * next statement, each still its own statement (its own Sync, named when prepared), on a
 * connection in node-postgres' pipeline mode, which sends without waiting for the answers before:
 * - START TRANSACTION waits for the transaction's first statement (and is never sent for a
 *   transaction that sends nothing);
 * - a statement marked `deferredStatement` (an outbox insert, a lock) is answered at once, with no
 *   rows, and waits for the next statement, at the latest COMMIT.
 * A statement that waited and fails fails the statement it went with, with its own error, and so
 * the transaction, as it would have failed by itself; ROLLBACK drops what waits.
 */
export function deferredStatement(sql: string): string {
  return `${DEFERRED}\n${sql}`;
}

const DEFERRED = '/* sent with the next statement; no answer awaited */';

/** A statement held back, as the caller gave it. */
export interface WaitingStatement {
  text: string;
  values: readonly unknown[] | undefined;
}

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
  /** The statement as it came, after whatever waited (none, or these). */
  | { kind: 'send'; waiting: WaitingStatement[] };

/** One connection's held-back statements; `plan` is asked for each statement in the order sent. */
export class StatementPipeline {
  private waiting: WaitingStatement[] = [];
  /** START TRANSACTION waits, or the transaction it began is open: deferred statements may wait. */
  private inTransaction = false;

  plan(text: string, values: readonly unknown[] | undefined): PipelinePlan {
    const parameterless = values === undefined || values.length === 0;
    if (text === 'START TRANSACTION' && parameterless && !this.inTransaction) {
      this.waiting = [{ text, values }];
      this.inTransaction = true;
      return { kind: 'answer', answer: localAnswer('BEGIN') };
    }
    if (this.inTransaction && text.startsWith(DEFERRED)) {
      this.waiting.push({ text, values });
      return { kind: 'answer', answer: localAnswer('SELECT') };
    }
    if ((text === 'COMMIT' || text === 'ROLLBACK') && parameterless) {
      this.inTransaction = false;
      const waiting = this.flush();
      // Postgres never saw the transaction begin: there is nothing to end.
      const begun = waiting[0]?.text !== 'START TRANSACTION';
      if (text === 'ROLLBACK')
        return begun ? { kind: 'send', waiting: [] } : { kind: 'answer', answer: localAnswer(text) };
      if (!begun && waiting.length === 1) return { kind: 'answer', answer: localAnswer(text) };
      return { kind: 'send', waiting };
    }
    return { kind: 'send', waiting: this.flush() };
  }

  /** Takes what waits (for the statement it goes with, or sent before a query `plan` does not read). */
  flush(): WaitingStatement[] {
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }
}

function localAnswer(command: string): LocalAnswer {
  return { command, rowCount: null, oid: null, rows: [], fields: [] };
}
