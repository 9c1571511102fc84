import { marketingIdsOf, TEXT_LIMITS, toStorableText, type CallAttribution } from '@trackline/contracts';
import { phoneNumberTypeName } from '@trackline/domain';
import type { DialledNumber, NewCdr } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';
import { recordAttribution } from './cdr-attribution';
import type { PricedCall } from './cdr-commission';
import type { CdrCustomer } from './cdr-customer';
import type { CdrInput } from './cdr-input';
import type { SpamJudgement } from './cdr-spam';

/** What ingestion decided about a call, with the call: everything its record holds. */
export interface DecidedCall {
  /** The call with its callers in their stored form. */
  call: CdrInput;
  dialled: DialledNumber;
  customer: CdrCustomer | null;
  source: CdrSource | null;
  heldBack: boolean;
  attribution: CallAttribution | null;
  priced: PricedCall;
  judged: SpamJudgement;
  now: Date;
}

/** The one mapping from an ingested call to the record stored. */
export function newCdr(decided: DecidedCall): NewCdr {
  const { call, dialled, customer, source, heldBack, attribution, priced, judged, now } = decided;
  return {
    callId: call.callId,
    partnerId: dialled.partnerId,
    customerId: customer?.id ?? null,
    custnr: customer?.custnr ?? null,
    sourceId: source?.id ?? null,
    campaignId: priced.pricing?.campaignId ?? null,
    pricingModelId: priced.pricing?.pricingModelId ?? null,
    start: call.start,
    durationSeconds: call.durationSeconds,
    anum: call.anum,
    bnum: call.bnum,
    cnum: call.cnum,
    answered: call.answered,
    voicemail: call.voicemail,
    anumNdcName: phoneNumberTypeName(call.anum),
    quarantined: heldBack || (attribution?.quarantined ?? false),
    commission: priced.commission,
    media: source?.media ?? null,
    sourceClass: source?.sourceClass ?? null,
    expire: source?.expire ?? null,
    publisherId: source?.publisherId ?? null,
    cliId: null,
    orderId: null,
    // Replacement accepts only what can be stored; an attribution an older version wrote is cleaned
    // by the one rule (docs/cdrs.md, "What both services accept") rather than losing the call.
    sessionId: storable(attribution?.sessionId, TEXT_LIMITS.sessionId),
    trackingId: storable(attribution?.trackingId, TEXT_LIMITS.trackingId),
    fullUrl: storable(attribution?.fullUrl),
    fullReferrer: storable(attribution?.fullReferrer),
    parameters: storableParameters(attribution?.parameters ?? null),
    ...recordAttribution(dialled, source, attribution),
    marketing: marketingIdsOf(attribution?.parameters),
    ...judged,
    spamMarked: null,
    recording: call.recording,
    timestamp: now,
  };
}

function storable(text: string | null | undefined, maxCharacters?: number): string | null {
  return text === null || text === undefined ? null : toStorableText(text, maxCharacters);
}

function storableParameters(parameters: Record<string, string> | null): Record<string, string> | null {
  if (parameters === null) return null;
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(parameters))
    clean[toStorableText(key)] = typeof value === 'string' ? toStorableText(value) : String(value);
  return clean;
}
