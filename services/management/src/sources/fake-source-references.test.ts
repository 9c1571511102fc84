import { FakeSourceReferences } from './fake-source-references';
import { sourceReferencesCases } from './source-references.cases';

describe('FakeSourceReferences', () => {
  sourceReferencesCases(async () => {
    const references = new FakeSourceReferences();
    let ids = 0;
    return {
      references,
      partnerId: '1',
      otherPartnerId: '2',
      newCustomer: async () => {
        const id = String(++ids);
        references.customers.set(id, '1');
        return id;
      },
      newCampaign: async (customerId) => {
        const id = String(++ids);
        references.campaigns.set(id, { partnerId: '1', customerId });
        return id;
      },
      newGreeting: async (customerId) => {
        const id = String(++ids);
        references.greetings.set(id, { partnerId: '1', customerId });
        return id;
      },
    };
  });
});
