import { encodeBindingContext, type SourceRoute } from '@trackline/contracts';
import {
  bindingProblems,
  ledgerProblems,
  type FailedAllocation,
  type Grant,
  type LedgerEntries,
  type RouteAnswer,
  type Session,
} from '../test-support/failover-ledger';
import { sourceRoute } from '../test-support/fixtures';

const SOURCE = sourceRoute({ sourceId: '301', phonenr: '+4722334455' });
const N = '+4791003000';
const M = '+4791003001';

function session(sessionId: string, source: SourceRoute = SOURCE): Session {
  return { sessionId, trackingId: `t-${sessionId}`, number: N, source };
}
const A = session('A');
const B = session('B');

function grant(holder: Session, number: string, sentAt: number, kind: Grant['kind'] = 'new'): Grant {
  return { kind, number, session: holder, sentAt, answeredAt: sentAt + 1 };
}

function routed(number: string, sentAt: number, answeredAt: number, holder: Session): RouteAnswer {
  const answer = {
    action: 'dial',
    target: holder.source.phonenr,
    source_id: holder.source.sourceId,
    session_id: holder.sessionId,
  };
  return { number, sentAt, answeredAt, answer };
}

function entries(
  grants: Grant[],
  routes: RouteAnswer[] = [],
  failedAllocations: FailedAllocation[] = [],
): LedgerEntries {
  return { grants, routes, failedAllocations };
}

/** `count` new sessions given other numbers, one a millisecond from `from`. */
function others(count: number, from: number): Grant[] {
  return Array.from({ length: count }, (_, i) => grant(session(`O${i}`), `+47910040${i}`, from + 2 * i));
}

const recycling = { poolSize: 24, recycling: true };

describe('the failover ledger', () => {
  it('without recycling: a number given to two sessions is wrong, one session coming back is not', () => {
    const sticky = entries([grant(A, N, 0), grant(A, N, 10, 'returning')]);
    expect(ledgerProblems(sticky, { poolSize: 24, recycling: false })).toEqual([]);
    const twice = entries([grant(A, N, 0), grant(B, N, 10)]);
    expect(ledgerProblems(twice, { poolSize: 24, recycling: false })).toEqual([
      expect.stringContaining(`${N} was given to 2 sessions`),
    ]);
  });

  it('a session given back the number recycled away from it, unless the whole pool was used since', () => {
    const back = entries([grant(A, N, 0), grant(B, N, 10), grant(A, N, 200, 'returning')]);
    expect(ledgerProblems(back, recycling)).toEqual([
      expect.stringContaining(`session A was given ${N} back after it went to session B`),
    ]);
    const afterTurn = entries([
      grant(A, N, 0),
      grant(B, N, 10),
      ...others(23, 20),
      grant(A, N, 200, 'returning'),
    ]);
    expect(ledgerProblems(afterTurn, recycling)).toEqual([]);
    // B's request overlapped A's return: either order may have run.
    const overlapping = entries([
      grant(A, N, 0),
      { ...grant(B, N, 10), answeredAt: 30 },
      grant(A, N, 20, 'returning'),
    ]);
    expect(ledgerProblems(overlapping, recycling)).toEqual([]);
  });

  it('a session coming back with another number only when its number may have been recycled', () => {
    const moved = [grant(A, N, 0), grant(A, M, 20, 'returning')];
    expect(ledgerProblems(entries(moved), recycling)).toEqual([
      expect.stringContaining(`session A came back with ${M} instead of ${N}`),
    ]);
    expect(ledgerProblems(entries([...moved, grant(B, N, 10)]), recycling)).toEqual([]);
    expect(ledgerProblems(entries(moved, [], [{ sentAt: 10, at: 11 }]), recycling)).toEqual([]);
    expect(ledgerProblems(entries([...moved, grant(B, N, 10)]), { ...recycling, recycling: false })).toEqual([
      expect.stringContaining(`${N} was given to 2 sessions`),
      expect.stringContaining('session A came back'),
    ]);
  });

  it('a call routed to the number binding of the time, and its source', () => {
    const given = [grant(A, N, 0), grant(B, N, 10)];
    expect(ledgerProblems(entries(given, [routed(N, 20, 21, B)]), recycling)).toEqual([]);
    // A route sent while B's allocation ran may see either binding.
    expect(ledgerProblems(entries(given, [routed(N, 5, 12, A)]), recycling)).toEqual([]);
    expect(ledgerProblems(entries(given, [routed(N, 20, 21, A)]), recycling)).toEqual([
      expect.stringContaining('its holder then was one of [B]'),
    ]);
    const otherSource = routed(
      N,
      20,
      21,
      session('B', sourceRoute({ sourceId: '302', phonenr: '+4722334466' })),
    );
    expect(ledgerProblems(entries(given, [otherSource]), recycling)).toEqual([
      expect.stringContaining('expected {"action":"dial","target":"+4722334455","source_id":"301"}'),
    ]);
    // A session no page heard of, only when an answer was lost meanwhile.
    const stranger = routed(N, 20, 21, session('X'));
    expect(ledgerProblems(entries(given, [stranger]), recycling)).toHaveLength(1);
    expect(ledgerProblems(entries(given, [stranger], [{ sentAt: 15, at: 16 }]), recycling)).toEqual([]);
  });

  it('the bindings left in Redis: each number with the session given it last', () => {
    // As the allocation script writes a binding (binding.codec.ts).
    const bound = (holder: string) =>
      `{"session_id":"${holder}","number_on_page":"${SOURCE.phonenr}","recycled":true,"bound_at":0,"context":` +
      encodeBindingContext({
        type: 'web',
        trackingId: 't',
        fullUrl: 'https://www.example.no/',
        fullReferrer: '',
        custnr: null,
        parameters: {},
      }) +
      '}';
    const given = entries([grant(A, N, 0), grant(B, N, 10)]);
    expect(bindingProblems(given, { [N]: bound('B') })).toEqual([]);
    expect(bindingProblems(given, { [N]: bound('A') })).toEqual([
      expect.stringContaining(`${N} is bound to session A`),
    ]);
    expect(bindingProblems(given, {})).toEqual([`${N} was given out but has no binding`]);
    expect(bindingProblems(given, { [N]: bound('B'), [M]: bound('X') })).toEqual([
      `1 numbers are bound though no page was given them, and only 0 answers were lost`,
    ]);
    const lost = entries(given.grants, [], [{ sentAt: 30, at: 31 }]);
    expect(bindingProblems(lost, { [N]: bound('X'), [M]: bound('Y') })).toEqual([]);
  });
});
