import { FakePricingModelsStore } from './fake-pricing-models.store';
import { pricingModelsStoreCases } from './pricing-models.store.cases';

describe('FakePricingModelsStore', () => {
  pricingModelsStoreCases(async () => {
    let partners = 0;
    return { store: new FakePricingModelsStore(), newPartner: async () => String(++partners) };
  });
});
