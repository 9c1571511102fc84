import type { PricingCondition } from '@trackline/domain';

/** A pricing model as services see it (docs/partner-api.md, Pricing models and campaigns). */
export interface PricingModel {
  /** UUID. */
  id: string;
  partnerId: string;
  name: string;
  /** "0" (cost per lead) is the only type. */
  type: '0';
  /** A repeat caller within this many seconds earns no commission; 0 turns the rule off. */
  uniqueCallerSeconds: number;
  /** In order; the first matching condition wins. */
  conditions: PricingCondition[];
  created: Date;
  modified: Date;
}

export interface PricingModelValues {
  name: string;
  type: '0';
  uniqueCallerSeconds: number;
  conditions: PricingCondition[];
}

/**
 * Changes of a PUT. `conditionsPatch` is the raw conditions input, merged by position into the
 * stored conditions by the service (under a row lock) with the domain's mergePricingConditions.
 */
export interface PricingModelChanges {
  name?: string;
  uniqueCallerSeconds?: number;
  conditionsPatch?: unknown;
}

/** A campaign that uses a pricing model (the `used_by` entries). */
export interface PricingModelUser {
  id: string;
  name: string;
}

/** A pricing model with the campaigns using it, as the API shows it. */
export interface PricingModelView {
  model: PricingModel;
  usedBy: PricingModelUser[];
}
