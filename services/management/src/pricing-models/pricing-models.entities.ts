import { PricingModelEntity } from './pricing-model.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const PRICING_MODELS_ENTITIES = [PricingModelEntity];
