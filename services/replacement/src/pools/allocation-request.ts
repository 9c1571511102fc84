import { context, propagation } from '@opentelemetry/api';
import {
  CUSTOMER_EVENTS_MAXLEN,
  encodeBindingContext,
  encodeCustomerSeenEvent,
  type BindingContext,
  type CustomerSeenEvent,
  type OnExhausted,
} from '@trackline/contracts';

/** What lua/allocate-numbers.lua needs besides its keys, with every time already worked out. */
export interface AllocationRequest {
  now: number;
  sessionTtlMs: number;
  /** Epoch ms from which the numbers are free again: now + session ttl + hold-back. */
  releaseAt: number;
  /** Thousandths of a ms the request's scores go above releaseAt (release-order.ts). */
  releaseOffset: number;
  onExhausted: OnExhausted;
  newSessionId: string;
  /** False only for a first web request: its session id was made just now, so there is nothing to read. */
  sessionMayExist: boolean;
  context: BindingContext;
  /** The customer the script checks against the partner's `customers:sent` record, with its marker (customerMarker). */
  customer: { event: CustomerSeenEvent; marker: string } | null;
  numbersOnPage: string[];
}

/** Separates the event's fields in ARGV[10]; no field can hold one (see eventArgument). */
export const EVENT_FIELD_SEPARATOR = '\u0000';

/**
 * The script's ARGV (docs/benchmarks.md, Allocation script). Redis makes every argument
 * a Lua string whether the script reads it or not, yet splitting a string in the script (a find
 * and a sub per value) or reading one character of it costs more than an argument: so the values
 * a request reads stay arguments of their own, two flags share one argument the script compares
 * whole, and the stream's MAXLEN rides with the event, which is split only when it is sent.
 *
 * ARGV[1] now (epoch ms)   ARGV[2] session ttl (ms)
 * ARGV[3] release time (now + ttl + hold-back, plus the request's thousandths: release-order.ts)
 * ARGV[4] session end (now + ttl)
 * ARGV[5] mode: '1' when the request names a session that may exist, '0' for a first web request;
 *         then 'r' for on_exhausted=recycle, 'o' for original
 * ARGV[6] id for a new session   ARGV[7] binding context JSON (binding.codec.ts)
 * With a customer to check (the script is then called with six keys, number-pool.store.ts):
 * ARGV[8] custnr   ARGV[9] customer marker
 * ARGV[10] the stream's MAXLEN and the customer-seen event's field/value strings, separated by
 *         EVENT_FIELD_SEPARATOR
 * ARGV[11..] the numbers on the page (E.164)
 * Without one (no custnr, or its marker just confirmed; four keys): ARGV[8..] the numbers on the page.
 */
export function allocationArguments(request: AllocationRequest): string[] {
  const { customer } = request;
  const fixed = [
    String(request.now),
    String(request.sessionTtlMs),
    releaseScore(request.releaseAt, request.releaseOffset),
    String(request.now + request.sessionTtlMs),
    (request.sessionMayExist ? '1' : '0') + (request.onExhausted === 'recycle' ? 'r' : 'o'),
    request.newSessionId,
    encodeBindingContext(request.context),
  ];
  if (customer === null) return fixed.concat(request.numbersOnPage);
  return fixed.concat(
    customer.event.custnr,
    customer.marker,
    eventArgument(customer.event),
    request.numbersOnPage,
  );
}

/** The release time as the pool score's text; whole milliseconds unless an earlier request of the millisecond took some. */
function releaseScore(releaseAt: number, thousandths: number): string {
  return thousandths === 0 ? String(releaseAt) : (releaseAt + thousandths / 1000).toFixed(3);
}

/** The script splits this at NUL, which no field can hold: both services' edges refuse it (text-rules.ts). */
function eventArgument(customer: CustomerSeenEvent): string {
  const traced = { ...customer, traceparent: requestTraceparent() };
  const fields = [String(CUSTOMER_EVENTS_MAXLEN), ...encodeCustomerSeenEvent(traced)];
  if (fields.some((field) => field.includes(EVENT_FIELD_SEPARATOR))) {
    throw new RangeError('a customer-seen event field holds a NUL character');
  }
  return fields.join(EVENT_FIELD_SEPARATOR);
}

/**
 * The traced request's W3C `traceparent`, carried in the customer-seen entry so management's consumer
 * links its span to this request (docs/operations.md, Tracing). Untraced (no SDK loaded), the API's
 * propagator is a no-op and the entry carries none.
 */
function requestTraceparent(): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}
