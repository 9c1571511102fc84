import { fail } from './projection-error';

/**
 * Customer-seen events go to one stream per partner (`events:customer-seen` under the partner's
 * hash tag), appended inside the allocation script so the event and the binding commit together and
 * the script stays valid on Redis Cluster. Management reads every partner's stream with one consumer
 * group, creating it with `XGROUP CREATE <key> <group> 0 MKSTREAM` (from 0: entries appended before
 * the group existed are not skipped), acks after its commit and reclaims stale pending entries with
 * XAUTOCLAIM.
 */
export const CUSTOMER_EVENTS_GROUP = 'management';

/** Approximate cap (XADD MAXLEN ~) per partner stream, so an absent consumer cannot fill Redis. */
export const CUSTOMER_EVENTS_MAXLEN = 100_000;

export const CUSTOMER_SEEN_EVENT_TYPE = 'customer_seen';
export const CUSTOMER_SEEN_EVENT_VERSION = 1;

export interface CustomerSeenEvent {
  advId: string;
  custnr: string;
  /** Absent when the request did not send it: the customer's stored name is then left alone. */
  custname?: string;
  custemail?: string;
  /** Epoch ms of the request. */
  at: number;
  /**
   * The W3C `traceparent` of the replacement request that saw the customer, when it was traced:
   * management's consumer links its span to it (docs/operations.md, Tracing).
   */
  traceparent?: string;
}

/** version-traceid-parentid-flags, lower-case hex (W3C Trace Context). */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Flat field/value list for XADD (and for the allocation script's ARGV). */
export function encodeCustomerSeenEvent(event: CustomerSeenEvent): string[] {
  const fields = [
    'version', String(CUSTOMER_SEEN_EVENT_VERSION),
    'type', CUSTOMER_SEEN_EVENT_TYPE,
    'adv_id', event.advId,
    'custnr', event.custnr,
    'at', String(event.at),
  ]; // prettier-ignore
  if (event.custname !== undefined) fields.push('custname', event.custname);
  if (event.custemail !== undefined) fields.push('custemail', event.custemail);
  if (event.traceparent !== undefined) fields.push('traceparent', event.traceparent);
  return fields;
}

/** The field/value list of one stream entry (as XREADGROUP returns it) → event. */
export function decodeCustomerSeenEvent(fields: readonly string[]): CustomerSeenEvent {
  const what = 'customer-seen event';
  if (fields.length % 2 !== 0) fail(what, 'odd number of fields');
  const map = new Map<string, string>();
  for (let i = 0; i < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  if (map.get('version') !== String(CUSTOMER_SEEN_EVENT_VERSION))
    fail(what, `unknown version ${map.get('version')}`);
  if (map.get('type') !== CUSTOMER_SEEN_EVENT_TYPE) fail(what, `unknown type ${map.get('type')}`);
  const advId = map.get('adv_id');
  const custnr = map.get('custnr');
  const at = map.get('at');
  if (advId === undefined || advId === '' || custnr === undefined || custnr === '')
    fail(what, 'adv_id and custnr are required');
  if (at === undefined || !/^\d{1,15}$/.test(at)) fail(what, 'at must be epoch milliseconds');
  const event: CustomerSeenEvent = { advId, custnr, at: Number(at) };
  const custname = map.get('custname');
  const custemail = map.get('custemail');
  if (custname !== undefined) event.custname = custname;
  if (custemail !== undefined) event.custemail = custemail;
  // Only a link for the trace: one that does not read as a traceparent is left out, not refused.
  const traceparent = map.get('traceparent');
  if (traceparent !== undefined && TRACEPARENT.test(traceparent)) event.traceparent = traceparent;
  return event;
}

/**
 * The last values sent for one custnr stay in the partner's `customers:sent` hash (custnr → marker),
 * so the allocation script appends an event only when a request shows values not sent before: a
 * changed name or e-mail gives a new marker and so a new event. The marker also names the period of
 * CUSTOMER_SEEN_RESEND_MS it was sent in, so every customer still seen is sent again once per period,
 * which repairs what no other path would (an entry trimmed before it was consumed, a database restored
 * from a backup) at the cost of one write-free upsert per customer and period.
 */
export const CUSTOMER_SEEN_RESEND_MS = 60 * 60 * 1000;

export function customerMarker(event: Pick<CustomerSeenEvent, 'custname' | 'custemail' | 'at'>): string {
  return `${customerSeenPeriod(event.at)}:${JSON.stringify([event.custname ?? null, event.custemail ?? null])}`;
}

/** The CUSTOMER_SEEN_RESEND_MS period a time falls in: two events of one period and values share a marker. */
export function customerSeenPeriod(at: number): number {
  return Math.floor(at / CUSTOMER_SEEN_RESEND_MS);
}
