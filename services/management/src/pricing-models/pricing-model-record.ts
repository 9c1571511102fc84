import { renderPricingCondition } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { PricingModelView } from './pricing-model';

export const PRICING_MODEL_NAMES: ResourceNames = { plural: 'pricing_models', singular: 'pricing_model' };

/** The seed's pricing_models record: strings, `conditions` in the wire form, `used_by` as [{id, name}]. */
export function toPricingModelRecord({ model, usedBy }: PricingModelView): ApiRecord {
  return {
    pricing_model_id: model.id,
    name: model.name,
    type: model.type,
    unique_caller_time: model.uniqueCallerSeconds.toString(),
    conditions: model.conditions.map(renderPricingCondition),
    used_by: usedBy.map((campaign) => ({ id: campaign.id, name: campaign.name })),
  };
}
