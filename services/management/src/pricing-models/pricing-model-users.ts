import type { PricingModelUser } from './pricing-model';

/**
 * Which campaigns use which pricing models (`used_by`, and the 403 on DELETE). The campaigns
 * feature implements this port on its table.
 */
export interface PricingModelUsers {
  /** For each id asked, its users in campaign id order; ids without users may be absent. */
  campaignsUsing(
    partnerId: string,
    pricingModelIds: readonly string[],
  ): Promise<Map<string, PricingModelUser[]>>;
}
