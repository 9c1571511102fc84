import type { OutcomeStatus } from '@trackline/domain';
import type { Cdr } from '../cdrs/cdr';
import type { IntegrationKind, StoredIntegration } from '../integrations/integration';

/** One conversion to queue for one destination (docs/conversions.md, What is sent when). */
export interface ConversionToQueue {
  destination: IntegrationKind;
  /** The integration's id: the lane the conversion waits in. */
  integrationId: string;
  /** Stable per call and kind: the outbox holds it once, and Google Ads counts it once. */
  orderId: string;
  /** The outcome as posted, for an outcome's conversion; null for the call's own. */
  outcome: { status: OutcomeStatus; value: string | null; currency: string | null } | null;
  /** The conversion's time: the call's start, or when the outcome was posted. */
  occurredAt: Date;
}

/** `trackline-<cdr_id>-call` or `trackline-<cdr_id>-<status>`. */
export function conversionOrderId(cdrId: string, kind: 'call' | OutcomeStatus): string {
  return `trackline-${cdrId}-${kind}`;
}

/** Whether the record carries anything Google can attribute; without, nothing is queued or looked up. */
export function hasMarketingIds(cdr: Pick<Cdr, 'marketing'>): boolean {
  const ids = cdr.marketing;
  return ids.gclid !== null || ids.gbraid !== null || ids.wbraid !== null || ids.gaClientId !== null;
}

function hasClickId(cdr: Pick<Cdr, 'marketing'>): boolean {
  return cdr.marketing.gclid !== null || cdr.marketing.gbraid !== null || cdr.marketing.wbraid !== null;
}

/**
 * A stored call's conversions: GA4 gets an event for every answered call with a client id; Google
 * Ads a click conversion for an answered call with a click id that lasted longer than the partner's
 * `call_min_duration`. Paused integrations queue nothing.
 */
export function callConversions(
  cdr: Pick<Cdr, 'id' | 'answered' | 'durationSeconds' | 'start' | 'marketing'>,
  integrations: readonly StoredIntegration[],
): ConversionToQueue[] {
  if (!cdr.answered) return [];
  const queued: ConversionToQueue[] = [];
  for (const integration of integrations) {
    if (integration.paused) continue;
    const counts =
      integration.kind === 'ga4'
        ? cdr.marketing.gaClientId !== null
        : hasClickId(cdr) && cdr.durationSeconds > integration.callMinDuration;
    if (counts)
      queued.push({
        destination: integration.kind,
        integrationId: integration.id,
        orderId: conversionOrderId(cdr.id, 'call'),
        outcome: null,
        occurredAt: cdr.start,
      });
  }
  return queued;
}

/**
 * An outcome's conversions: GA4 gets an event for every status (a lead-lifecycle event); Google Ads
 * a click conversion for the statuses the partner counts. Each status of a call is queued once.
 */
export function outcomeConversions(
  cdr: Pick<Cdr, 'id' | 'marketing' | 'outcome'>,
  integrations: readonly StoredIntegration[],
): ConversionToQueue[] {
  const outcome = cdr.outcome;
  if (outcome === null) return [];
  const queued: ConversionToQueue[] = [];
  for (const integration of integrations) {
    if (integration.paused) continue;
    const counts =
      integration.kind === 'ga4'
        ? cdr.marketing.gaClientId !== null
        : hasClickId(cdr) && integration.outcomeStatuses.includes(outcome.status);
    if (counts)
      queued.push({
        destination: integration.kind,
        integrationId: integration.id,
        orderId: conversionOrderId(cdr.id, outcome.status),
        outcome: { status: outcome.status, value: outcome.value, currency: outcome.currency },
        occurredAt: outcome.at,
      });
  }
  return queued;
}
