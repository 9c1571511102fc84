import type { AttachedSource } from './campaign';

/**
 * The sources attached to campaigns (the record's `sources`, and the 403 on DELETE). Implemented
 * on the sources table, which belongs to the sources feature.
 */
export interface CampaignSources {
  /** For each campaign asked, its attached sources in source id order; campaigns without may be absent. */
  sourcesAttached(partnerId: string, campaignIds: readonly string[]): Promise<Map<string, AttachedSource[]>>;
}

/**
 * Whether a voicemail greeting is the given customer's (campaign `vm_greeting_id`,
 * docs/voicemail-greetings.md).
 */
export interface CustomerGreetings {
  greetingBelongsToCustomer(partnerId: string, customerId: string, greetingId: string): Promise<boolean>;
}
