import { FakeCampaignsStore } from './fake-campaigns.store';
import { campaignsStoreCases } from './campaigns.store.cases';

describe('FakeCampaignsStore', () => {
  campaignsStoreCases(async () => {
    let customers = 0;
    return {
      store: new FakeCampaignsStore(),
      partnerId: '1',
      otherPartnerId: '2',
      newCustomer: async () => String(++customers),
      pricingModelIds: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
    };
  });
});
