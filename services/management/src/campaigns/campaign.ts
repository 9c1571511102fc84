import type { NotificationSettings } from '../notifications/notification-settings';
/**
 * `state` on the wire: "0" active, "1" paused, "2" closed (docs/partner-api.md, Pricing models and
 * campaigns). Only active ones earn commission.
 */
export const CAMPAIGN_STATES = ['0', '1', '2'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];
export const CAMPAIGN_STATE_ACTIVE: CampaignState = '0';
export const CAMPAIGN_STATE_CLOSED: CampaignState = '2';

/** A campaign as services see it. */
export interface Campaign extends NotificationSettings {
  /** Decimal string (bigint). */
  id: string;
  partnerId: string;
  customerId: string;
  /** UUID. */
  pricingModelId: string;
  name: string;
  partnerCampaignId: string | null;
  state: CampaignState;
  /** Creation time (the record's `timestamp`). */
  created: Date;
  /** When the campaign was closed (state 2); null while active or paused. */
  expire: Date | null;
  modified: Date;
}

/** The settable values of POST; a new campaign is active. */
export interface CampaignValues extends NotificationSettings {
  pricingModelId: string;
  name: string;
  partnerCampaignId: string | null;
}

/** Changes of a PUT: keys left out keep their value. */
export type CampaignChanges = Partial<CampaignValues> & { state?: CampaignState };

/** What the store writes on update: the PUT's changes plus the derived `expire`. */
export type CampaignColumns = CampaignChanges & { expire?: Date | null };

/** A source attached to a campaign (the `sources` object of the record). */
export interface AttachedSource {
  id: string;
  name: string;
}

/** A campaign with its attached sources, as the API shows it. */
export interface CampaignView {
  campaign: Campaign;
  sources: AttachedSource[];
}
