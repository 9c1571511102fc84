import {
  decodeStoredPricingConditions,
  matchCommission,
  needsCallerHistory,
  type CommissionTerms,
} from '@trackline/domain';
import { CAMPAIGN_STATE_ACTIVE } from '../campaigns/campaign';
import type { DialledNumber } from './cdr';
import type { CdrCampaignPricing } from '../campaigns/campaign-pricing.reader';
import type { CdrBatchLookup } from './cdr-batch-lookup';
import type { CdrInput } from './cdr-input';
import type { CdrWriteStore } from './cdrs.store';

export interface PricedCall {
  /** The campaign's pricing the record names; null without a campaign. */
  pricing: CdrCampaignPricing | null;
  /** Two-decimal string, or null when the call earned nothing. */
  commission: string | null;
}

/** A call with its campaign's pricing, before the caller's history is known. */
export interface PricingCall {
  pricing: CdrCampaignPricing | null;
  /** Null without pricing. */
  terms: CommissionTerms | null;
}

/**
 * What a call earns on its source's campaign (docs/partner-api.md, Commission; docs/cdrs.md, "Whose call it is"): the campaign's pricing model
 * matched against the call, in the partner's time zone. Inside the record's transaction: when the
 * unique-caller rule decides, the caller is locked in the campaign until the record commits, so one
 * caller's calls into one campaign are priced one at a time.
 */
export async function priceCall(
  cdrs: Pick<CdrWriteStore, 'findCampaignPricing' | 'lockCaller' | 'nearestLeadAt'>,
  lookup: Pick<CdrBatchLookup, 'pricing'>,
  dialled: DialledNumber,
  campaignId: string | null,
  call: CdrInput,
): Promise<PricedCall> {
  const { pricing, terms } = await pricingOf(cdrs, lookup, dialled, campaignId, call);
  if (pricing === null || terms === null) return { pricing: null, commission: null };
  let callerLastLeadAt: Date | null = null;
  if (needsCallerHistory(terms)) {
    await cdrs.lockCaller(pricing.campaignId, call.anum);
    callerLastLeadAt = await cdrs.nearestLeadAt(
      pricing.campaignId,
      call.anum,
      call.start,
      pricing.uniqueCallerSeconds,
    );
  }
  return { pricing, commission: matchCommission({ ...terms, callerLastLeadAt })?.commission ?? null };
}

/** The campaign's pricing (the batch's lookup, else read) and the terms it sets for the call. */
export async function pricingOf(
  cdrs: Pick<CdrWriteStore, 'findCampaignPricing'>,
  lookup: Pick<CdrBatchLookup, 'pricing'>,
  dialled: DialledNumber,
  campaignId: string | null,
  call: CdrInput,
): Promise<PricingCall> {
  if (campaignId === null) return { pricing: null, terms: null };
  const pricing =
    lookup.pricing(dialled.partnerId, campaignId) ??
    (await cdrs.findCampaignPricing(dialled.partnerId, campaignId));
  if (pricing === null) return { pricing: null, terms: null };
  const terms: CommissionTerms = {
    conditions: decodeStoredPricingConditions(pricing.conditions),
    uniqueCallerSeconds: pricing.uniqueCallerSeconds,
    call: {
      answered: call.answered,
      durationSeconds: call.durationSeconds,
      start: call.start,
      anum: call.anum,
    },
    timeZone: dialled.timeZone,
    campaignActive: pricing.state === CAMPAIGN_STATE_ACTIVE,
  };
  return { pricing, terms };
}

/**
 * Prices a batch's calls in one transaction, as priceCall would one after another in their order
 * (docs/cdrs.md, "Batches"): every caller the unique-caller rule decides is locked at once, in an
 * order every batch shares (so two batches wait for each other, never in a circle), the stored
 * leads are read in one query, and a call that earns counts as a lead for the batch's later calls.
 * `earns` says whether a call that matched a condition keeps its commission (spam does not,
 * docs/spam.md), since only a kept commission is a lead.
 */
export async function priceBatch(
  cdrs: Pick<CdrWriteStore, 'lockCallers' | 'nearestLeadsAt'>,
  calls: readonly PricingCall[],
  earns: (index: number) => boolean,
): Promise<PricedCall[]> {
  const historyOf = calls.map(({ terms }) => terms !== null && needsCallerHistory(terms));
  const callers = calls.flatMap(({ pricing, terms }, i) =>
    historyOf[i] ? [{ campaignId: pricing!.campaignId, anum: terms!.call.anum }] : [],
  );
  await cdrs.lockCallers(callers);
  const stored = await cdrs.nearestLeadsAt(
    calls.flatMap(({ pricing, terms }, i) =>
      historyOf[i]
        ? [
            {
              campaignId: pricing!.campaignId,
              anum: terms!.call.anum,
              at: terms!.call.start,
              withinSeconds: pricing!.uniqueCallerSeconds,
            },
          ]
        : [],
    ),
  );
  const batchLeads = new Map<string, Date[]>();
  let next = 0;
  return calls.map(({ pricing, terms }, i) => {
    if (pricing === null || terms === null) return { pricing: null, commission: null };
    const caller = `${pricing.campaignId} ${terms.call.anum}`;
    let callerLastLeadAt: Date | null = null;
    if (historyOf[i])
      callerLastLeadAt = nearest(terms.call.start, [
        stored[next++] ?? null,
        ...(batchLeads.get(caller) ?? []),
      ]);
    const commission = matchCommission({ ...terms, callerLastLeadAt })?.commission ?? null;
    if (commission !== null && earns(i))
      batchLeads.set(caller, [...(batchLeads.get(caller) ?? []), terms.call.start]);
    return { pricing, commission };
  });
}

function nearest(at: Date, leads: ReadonlyArray<Date | null>): Date | null {
  let best: Date | null = null;
  for (const lead of leads) {
    if (lead === null) continue;
    if (best === null || Math.abs(lead.getTime() - at.getTime()) < Math.abs(best.getTime() - at.getTime()))
      best = lead;
  }
  return best;
}
