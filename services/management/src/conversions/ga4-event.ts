import type { OutcomeStatus } from '@trackline/domain';
import type { Cdr } from '../cdrs/cdr';
import type { ClaimedConversion } from './conversion-outbox.store';

/**
 * The GA4 event names (docs/conversions.md, What is sent when): an answered call is `phone_call`;
 * outcomes follow GA4's recommended lead events.
 */
const GA4_OUTCOME_EVENTS: Record<OutcomeStatus, string> = {
  lead: 'generate_lead',
  qualified: 'qualify_lead',
  sale: 'close_convert_lead',
  not_a_lead: 'disqualify_lead',
};
const GA4_CALL_EVENT = 'phone_call';

/** GA4 takes events dated at most 72 hours back; older ones it drops without a word. */
export const GA4_MAX_AGE_MS = 72 * 3600 * 1000;

/**
 * The Measurement Protocol body of one conversion: the session's client id, the conversion's time in
 * microseconds, and the session id when the page sent one. Amounts leave as JSON numbers, written
 * from the decimal string (GA4's `value` is a number); nothing about the caller is sent.
 */
export function ga4Body(
  cdr: Pick<Cdr, 'durationSeconds' | 'marketing'>,
  row: ClaimedConversion,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (cdr.marketing.gaSessionId !== null) params.session_id = cdr.marketing.gaSessionId;
  // GA4 counts an event toward engagement (and shows it in reports) only with an engagement time.
  params.engagement_time_msec = 1;
  if (row.outcome === null) params.call_duration = cdr.durationSeconds;
  if (row.outcome?.value != null && row.outcome.currency !== null) {
    params.value = Number(row.outcome.value);
    params.currency = row.outcome.currency;
  }
  return {
    client_id: cdr.marketing.gaClientId,
    timestamp_micros: row.occurredAt.getTime() * 1000,
    events: [
      { name: row.outcome === null ? GA4_CALL_EVENT : GA4_OUTCOME_EVENTS[row.outcome.status], params },
    ],
  };
}
