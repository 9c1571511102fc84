import { decodeBinding, type SourceRoute } from '@trackline/contracts';

/**
 * Who may hold a pool number, judged only from what the partner's pages and the switch were
 * answered and when (times from performance.now()). Requests overlap, and an answer lost in a
 * failover may still have changed Redis, so each check allows exactly what could have happened in
 * some order of execution, and nothing else (docs/number-replacement.md, Pools and allocation).
 */

export interface Session {
  sessionId: string;
  trackingId: string;
  /** The number this session was last given. */
  number: string;
  source: SourceRoute;
}

/** A number given to a session: a new session's, or a returning session's (the same one or another). */
export interface Grant {
  kind: 'new' | 'returning';
  number: string;
  session: Session;
  sentAt: number;
  answeredAt: number;
}

/** An allocation answered with an error or not at all: it may or may not have run in Redis. */
export interface FailedAllocation {
  sentAt: number;
  at: number;
}

/** `POST /telephony/route` for a number, answered 200. */
export interface RouteAnswer {
  number: string;
  sentAt: number;
  answeredAt: number;
  answer: Record<string, unknown>;
}

export interface LedgerEntries {
  grants: Grant[];
  failedAllocations: FailedAllocation[];
  routes: RouteAnswer[];
}

export interface LedgerOptions {
  poolSize: number;
  /** on_exhausted=recycle with the pool exhausted: a number may pass from a live session to a new one. */
  recycling: boolean;
}

/**
 * Wrong answers during the load: a number given to two sessions (without recycling), a returning
 * session given back a number recycled away from it, a session that lost its number while nothing
 * could have recycled it, a call routed to anything but the number's binding at the time.
 */
export function ledgerProblems(entries: LedgerEntries, options: LedgerOptions): string[] {
  const ledger = new Ledger(entries);
  return [
    ...(options.recycling ? [] : ledger.numbersOnTwoSessions()),
    ...ledger.returningProblems(options),
    ...ledger.routeProblems(),
  ];
}

/**
 * The bindings left in Redis (`<T>:bindings`, read once the load has stopped) against the ledger:
 * each number given out is bound to the session it was given to last (or, when an answer was lost
 * after that, to a session no page was told of); a number no page was given is bound only through
 * a lost answer.
 */
export function bindingProblems(entries: LedgerEntries, bindings: Record<string, string>): string[] {
  const ledger = new Ledger(entries);
  const problems: string[] = [];
  const end = Number.POSITIVE_INFINITY;
  let unannounced = 0;
  for (const [number, raw] of Object.entries(bindings)) {
    const sessionId = decodeBinding(raw).sessionId;
    const given = ledger.grantsOf(number);
    if (given.length === 0) {
      unannounced++;
      if (ledger.isKnownSession(sessionId))
        problems.push(`${number} is bound to session ${sessionId}, which was never given it`);
      continue;
    }
    const problem = ledger.holderProblem(number, sessionId, end, end);
    if (problem !== null) problems.push(`${number} is bound to session ${sessionId}: ${problem}`);
  }
  if (unannounced > entries.failedAllocations.length)
    problems.push(
      `${unannounced} numbers are bound though no page was given them, ` +
        `and only ${entries.failedAllocations.length} answers were lost`,
    );
  for (const number of ledger.numbers())
    if (bindings[number] === undefined) problems.push(`${number} was given out but has no binding`);
  return problems;
}

class Ledger {
  private readonly byNumber = new Map<string, Grant[]>();
  private readonly bySession = new Map<string, Grant[]>();

  constructor(private readonly entries: LedgerEntries) {
    const byAnswer = [...entries.grants].sort((a, b) => a.answeredAt - b.answeredAt);
    for (const grant of byAnswer) {
      push(this.byNumber, grant.number, grant);
      push(this.bySession, grant.session.sessionId, grant);
    }
  }

  numbers(): string[] {
    return [...this.byNumber.keys()];
  }

  grantsOf(number: string): Grant[] {
    return this.byNumber.get(number) ?? [];
  }

  isKnownSession(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  numbersOnTwoSessions(): string[] {
    const problems: string[] = [];
    for (const [number, grants] of this.byNumber) {
      const sessions = new Set(grants.map((grant) => grant.session.sessionId));
      if (sessions.size > 1)
        problems.push(`${number} was given to ${sessions.size} sessions: ${[...sessions]}`);
    }
    return problems;
  }

  returningProblems(options: LedgerOptions): string[] {
    const problems: string[] = [];
    for (const grant of this.entries.grants.filter((candidate) => candidate.kind === 'returning')) {
      const session = grant.session.sessionId;
      const before = this.bySession
        .get(session)!
        .filter((earlier) => earlier.answeredAt < grant.sentAt)
        .at(-1);
      if (before === undefined) continue;
      if (grant.number === before.number) {
        for (const other of this.grantsOf(grant.number)) {
          if (other.session.sessionId === session) continue;
          // `other` certainly ran after the session's last answer and before this request: it took the number.
          if (other.sentAt <= before.answeredAt || other.answeredAt >= grant.sentAt) continue;
          // Unless the whole pool was used since, so that the number became the least recently used again.
          const since = this.allocationsBetween(other, grant);
          if (options.recycling && since >= options.poolSize - 1) continue;
          problems.push(
            `session ${session} was given ${grant.number} back after it went to session ` +
              `${other.session.sessionId}, with at most ${since} allocations in between`,
          );
        }
      } else if (
        !options.recycling ||
        !this.mayHaveBeenTaken(before.number, session, before.sentAt, grant.answeredAt)
      ) {
        problems.push(
          `session ${session} came back with ${grant.number} instead of ${before.number}, ` +
            'though nothing could have taken its number',
        );
      }
    }
    return problems;
  }

  routeProblems(): string[] {
    const problems: string[] = [];
    for (const route of this.entries.routes) {
      const sessionId = route.answer.session_id;
      const problem =
        typeof sessionId === 'string'
          ? this.holderProblem(route.number, sessionId, route.sentAt, route.answeredAt, route.answer)
          : 'no session';
      if (problem !== null)
        problems.push(`call to ${route.number} routed as ${JSON.stringify(route.answer)}: ${problem}`);
    }
    return problems;
  }

  /**
   * Why `sessionId` cannot have held `number` at some moment between `from` and `to`, or null when
   * it may have: its holder is the last session given it before `from` or one given it meanwhile,
   * or, after a lost answer, a session no page heard of. `answer` is a routing answer to check
   * against the holder's source.
   */
  holderProblem(
    number: string,
    sessionId: string,
    from: number,
    to: number,
    answer?: Record<string, unknown>,
  ): string | null {
    const grants = this.grantsOf(number);
    const last = grants.filter((grant) => grant.answeredAt < from).at(-1);
    const since = last?.sentAt ?? Number.NEGATIVE_INFINITY;
    const holders = grants.filter((grant) => grant.sentAt < to && grant.answeredAt > since);
    const holder = holders.find((grant) => grant.session.sessionId === sessionId);
    if (holder !== undefined) {
      const expected = {
        action: 'dial',
        target: holder.session.source.phonenr,
        source_id: holder.session.source.sourceId,
      };
      const differs = Object.entries(expected).some(
        ([field, value]) => answer !== undefined && answer[field] !== value,
      );
      return differs ? `expected ${JSON.stringify(expected)}` : null;
    }
    const lostAnswer = this.entries.failedAllocations.some((lost) => lost.sentAt < to && lost.at > since);
    if (!this.isKnownSession(sessionId) && lostAnswer) return null;
    const sessions = [...new Set(holders.map((grant) => grant.session.sessionId))];
    return `its holder then was one of [${sessions.join(', ')}]${lostAnswer ? ' or an unanswered session' : ''}`;
  }

  /** A grant of `number` to another session, or a lost answer, may have run between `from` and `to`. */
  private mayHaveBeenTaken(number: string, owner: string, from: number, to: number): boolean {
    const taken = this.grantsOf(number).some(
      (grant) => grant.session.sessionId !== owner && grant.sentAt < to && grant.answeredAt > from,
    );
    return taken || this.entries.failedAllocations.some((lost) => lost.sentAt < to && lost.at > from);
  }

  /** How many allocations (each moves one number to the top of the order) may have run between two grants. */
  private allocationsBetween(first: Grant, second: Grant): number {
    const overlaps = (sentAt: number, at: number) => sentAt < second.answeredAt && at > first.sentAt;
    return (
      this.entries.grants.filter(
        (grant) => grant !== first && grant !== second && overlaps(grant.sentAt, grant.answeredAt),
      ).length + this.entries.failedAllocations.filter((lost) => overlaps(lost.sentAt, lost.at)).length
    );
  }
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
