import {
  decodeStoredPricingConditions,
  matchCommission,
  needsCallerHistory,
  type CommissionTerms,
} from '@trackline/domain';
import { CAMPAIGN_STATE_ACTIVE } from '../campaigns/campaign';
import type { CdrCampaignPricing, DialledNumber } from './cdr';
import type { CdrBatchLookup } from './cdr-batch-lookup';
import type { CdrInput } from './cdr-input';
import type { CdrWriteStore } from './cdrs.store';

export interface PricedCall {
  /** The campaign's pricing the record names; null without a campaign. */
  pricing: CdrCampaignPricing | null;
  /** Two-decimal string, or null when the call earned nothing. */
  commission: string | null;
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
  if (campaignId === null) return { pricing: null, commission: null };
  const pricing =
    lookup.pricing(dialled.partnerId, campaignId) ??
    (await cdrs.findCampaignPricing(dialled.partnerId, campaignId));
  if (pricing === null) return { pricing: null, commission: null };
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
