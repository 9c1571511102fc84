import { formatUtcTimestamp, renderFlag } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { CampaignView } from './campaign';

export const CAMPAIGN_NAMES: ResourceNames = { plural: 'campaigns', singular: 'campaign' };

/**
 * The seed's campaigns record, in the seed's field order: strings or null, flags "0"/"1",
 * `sources` null when none, else an object mapping source_id to source name.
 */
export function toCampaignRecord({ campaign, sources }: CampaignView): ApiRecord {
  return {
    campaign_id: campaign.id,
    timestamp: formatUtcTimestamp(campaign.created),
    expire: campaign.expire === null ? null : formatUtcTimestamp(campaign.expire),
    pricing_model_id: campaign.pricingModelId,
    notify_on_missed_call: renderFlag(campaign.notifyOnMissedCall),
    notify_on_new_voicemail: renderFlag(campaign.notifyOnNewVoicemail),
    vm_divert_all: renderFlag(campaign.vmDivertAll),
    vm_divert_busy: renderFlag(campaign.vmDivertBusy),
    vm_divert_noanswer: renderFlag(campaign.vmDivertNoanswer),
    sources:
      sources.length === 0 ? null : Object.fromEntries(sources.map((source) => [source.id, source.name])),
    partner_campaign_id: campaign.partnerCampaignId,
    name: campaign.name,
    email: campaign.email,
    smsnumber: campaign.smsnumber,
    vm_greeting_id: campaign.vmGreetingId,
    state: campaign.state,
  };
}
