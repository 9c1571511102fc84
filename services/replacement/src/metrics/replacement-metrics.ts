import { createMetricsRegistry, FixedCounter, FixedHistogram, type Registry } from '@trackline/platform';

/** `outcome` of a replacement request: success, or the error's real HTTP status (also in legacy 200 mode). */
export const REQUEST_OUTCOMES = ['success', '400', '403', '413', '500', '501', 'other'] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];
export const ROUTE_ACTIONS = ['dial', 'voicemail', 'reject'] as const;
export type RouteAction = (typeof ROUTE_ACTIONS)[number];
/** Which interface a call came in on: the switch's `POST /telephony/route` or the provider's voice webhook. */
export const CALL_INTERFACES = ['switch', 'provider'] as const;
export type CallInterface = (typeof CALL_INTERFACES)[number];

// Seconds. The answer budget is 50 ms (seed) and the p99 target 5 ms (docs/benchmarks.md, Targets): fine
// below 5 ms.
const PROCESSING_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];

/**
 * The replacement service's metrics (docs/operations.md, Metrics). Counting on the replacement path
 * is array increments only (FixedCounter/FixedHistogram): that path is the benchmarked hot path.
 */
export class ReplacementMetrics {
  readonly registry: Registry;
  private readonly requests: FixedCounter<RequestOutcome>;
  private readonly sessions: FixedCounter<'new' | 'existing'>;
  private readonly processing: FixedHistogram;
  private readonly routeDecisions: FixedCounter<RouteAction>;
  private readonly redisErrors: FixedCounter<'timeout' | 'error'>;
  private readonly unknownNumberCalls: FixedCounter<CallInterface>;

  constructor(registry: Registry = createMetricsRegistry()) {
    this.registry = registry;
    this.requests = new FixedCounter(registry, {
      name: 'trackline_dynamic_number_requests_total',
      help: 'POST /dynamic-numbers and POST / answered, by outcome: success or the HTTP status of the error.',
      label: 'outcome',
      values: REQUEST_OUTCOMES,
    });
    this.sessions = new FixedCounter(registry, {
      name: 'trackline_dynamic_number_sessions_total',
      help: 'Successful replacement requests by session: new (a session started) or existing (a live session continued).',
      label: 'kind',
      values: ['new', 'existing'],
    });
    this.processing = new FixedHistogram(registry, {
      name: 'trackline_dynamic_number_processing_seconds',
      help: 'Processing time of replacement requests, the value of their Server-Timing header.',
      buckets: PROCESSING_BUCKETS,
    });
    this.routeDecisions = new FixedCounter(registry, {
      name: 'trackline_route_decisions_total',
      help: 'POST /telephony/route decisions by action.',
      label: 'action',
      values: ROUTE_ACTIONS,
    });
    this.redisErrors = new FixedCounter(registry, {
      name: 'trackline_redis_errors_total',
      help: 'Requests failed by Redis: timeout (no answer in time) or error (refused, connection lost).',
      label: 'kind',
      values: ['timeout', 'error'],
    });
    this.unknownNumberCalls = new FixedCounter(registry, {
      name: 'trackline_calls_to_unknown_numbers_total',
      help: 'Calls rejected because the dialled number is in no inventory (released, never added, or misrouted), by interface.',
      label: 'via',
      values: CALL_INTERFACES,
    });
  }

  /** One replacement response: its real status (not the legacy 200) and its Server-Timing milliseconds. */
  replacementAnswered(status: number, ms: number): void {
    this.requests.inc(outcomeIndex(status));
    this.processing.observe(ms / 1000);
  }

  session(isNew: boolean): void {
    this.sessions.inc(isNew ? 0 : 1);
  }

  routeDecision(action: RouteAction): void {
    this.routeDecisions.inc(ROUTE_ACTIONS.indexOf(action));
  }

  /** A call to a number no partner has (docs/telephony.md: answered `<Reject/>` / `reject`). */
  unknownNumberCalled(via: CallInterface): void {
    this.unknownNumberCalls.inc(CALL_INTERFACES.indexOf(via));
  }

  redisFailure(timedOut: boolean): void {
    this.redisErrors.inc(timedOut ? 0 : 1);
  }
}

// Positions in REQUEST_OUTCOMES; a switch, so the hot path builds no string.
function outcomeIndex(status: number): number {
  switch (status) {
    case 200:
      return 0;
    case 400:
      return 1;
    case 403:
      return 2;
    case 413:
      return 3;
    case 500:
      return 4;
    case 501:
      return 5;
    default:
      return 6;
  }
}
