import { TypeormGreetingsStore } from '../greetings/greetings.store';
import {
  insertTestCampaign,
  insertTestCustomer,
  insertTestPricingModel,
  onOwnDatabase,
} from '../test-support/store-case-fixtures';
import { insertTestPartners } from '../test-support/test-partners';
import { sourceReferencesCases } from './source-references.cases';
import { storesOn } from '../composition/stores-on-manager';

describe('TypeormSourceReferences, the cases its fake passes too', () => {
  sourceReferencesCases(
    onOwnDatabase(async ({ manager }) => {
      const [partnerId, otherPartnerId] = await insertTestPartners(manager, 'acme', 'beta');
      const pricingModelId = await insertTestPricingModel(manager, partnerId!, 'Standard');
      let count = 0;
      return {
        references: storesOn(manager).sourceReferences,
        partnerId: partnerId!,
        otherPartnerId: otherPartnerId!,
        newCustomer: () => insertTestCustomer(manager, partnerId!, `C-${++count}`),
        newCampaign: (customerId) =>
          insertTestCampaign(manager, partnerId!, customerId, pricingModelId, `Campaign ${++count}`),
        newGreeting: async (customerId) =>
          (await new TypeormGreetingsStore(manager).insert(partnerId!, {
            customerId,
            name: `Greeting ${++count}`,
            recordPin: String(600000 + count),
          }))!.id,
      };
    }),
  );
});
