import { formatUtcTimestamp, maskCallerNumber, renderFlag, renderSpamReasons } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { Cdr } from './cdr';

export const CDR_NAMES: ResourceNames = { plural: 'cdrs', singular: 'cdr' };

/**
 * The seed's cdrs record: basic fields, and with `extended` the seed's extended fields plus the
 * DNI attribution, the outcome, spam and the call's transcript summary. Every value a string or null.
 *
 * Each shape is one object literal. Spreading the basic record into the extended fields
 * (`{ ...basic, quarantined, … }`) builds every record property by property, and a page of 1,000
 * extended records then took about thirty times as long to build and serialize
 * (docs/benchmarks.md, Reads: statistics pages and the monthly report).
 */
export function toCdrRecord(cdr: Cdr, options: { extended: boolean; showFullAnum: boolean }): ApiRecord {
  const start = formatUtcTimestamp(cdr.start);
  const duration = String(cdr.durationSeconds);
  // Last three digits hidden unless the partner sees callers whole (docs/partner-api.md, Call records).
  const anum = options.showFullAnum ? cdr.anum : maskCallerNumber(cdr.anum);
  const answered = renderFlag(cdr.answered);
  if (!options.extended) {
    return {
      cdr_id: cdr.id,
      start,
      duration,
      anum,
      bnum: cdr.bnum,
      cnum: cdr.cnum,
      customer_id: cdr.customerId,
      source_id: cdr.sourceId,
      custnr: cdr.custnr,
      answered,
      anum_ndc_name: cdr.anumNdcName,
    };
  }
  return {
    cdr_id: cdr.id,
    start,
    duration,
    anum,
    bnum: cdr.bnum,
    cnum: cdr.cnum,
    customer_id: cdr.customerId,
    source_id: cdr.sourceId,
    custnr: cdr.custnr,
    answered,
    anum_ndc_name: cdr.anumNdcName,
    quarantined: renderFlag(cdr.quarantined),
    timestamp: formatUtcTimestamp(cdr.timestamp),
    expire: cdr.expire === null ? null : formatUtcTimestamp(cdr.expire),
    media: cdr.media,
    class: cdr.sourceClass,
    voicemail: renderFlag(cdr.voicemail),
    publisher_id: cdr.publisherId,
    campaign_id: cdr.campaignId,
    pricing_model_id: cdr.pricingModelId,
    commission: cdr.commission,
    cli_id: cdr.cliId,
    order_id: cdr.orderId,
    session_id: cdr.sessionId,
    tracking_id: cdr.trackingId,
    full_url: cdr.fullUrl,
    full_referrer: cdr.fullReferrer,
    parameters: cdr.parameters,
    attribution: cdr.attribution,
    bound_seconds: cdr.boundSeconds === null ? null : String(cdr.boundSeconds),
    gclid: cdr.marketing.gclid,
    gbraid: cdr.marketing.gbraid,
    wbraid: cdr.marketing.wbraid,
    ga_client_id: cdr.marketing.gaClientId,
    ga_session_id: cdr.marketing.gaSessionId,
    outcome_status: cdr.outcome?.status ?? null,
    outcome_value: cdr.outcome?.value ?? null,
    outcome_currency: cdr.outcome?.currency ?? null,
    outcome_note: cdr.outcome?.note ?? null,
    outcome_modified: cdr.outcome === null ? null : formatUtcTimestamp(cdr.outcome.at),
    stir_verstat: cdr.stirVerstat,
    spam_score: cdr.spamScore === null ? null : String(cdr.spamScore),
    spam_reasons: cdr.spamScore === null ? null : renderSpamReasons(cdr.spamReasons),
    spam: renderFlag(cdr.spam),
    transcript_status: cdr.transcript?.status ?? 'none',
    classification: cdr.transcript?.classification ?? null,
    keywords_spotted: keywordsSpotted(cdr),
  };
}

/**
 * Comma-separated like the record's other lists (`spam_reasons`); null until a transcript is done,
 * "" when it spotted none. A keyword holds no comma (docs/call-intelligence.md, API).
 */
function keywordsSpotted(cdr: Cdr): string | null {
  return cdr.transcript?.status === 'done' ? cdr.transcript.keywords.join(',') : null;
}
