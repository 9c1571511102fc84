import { parsePricingConditions } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import { TypeormCustomersStore } from '../customers/customers.store';
import { createDataSource } from '../db/data-source';
import { TypeormGreetingsStore } from '../greetings/greetings.store';
import { TypeormPricingModelsStore } from '../pricing-models/pricing-models.store';
import { insertTestPartners } from '../testing/test-partners';
import { sourceReferencesCases } from './source-references.cases';
import { TypeormSourceReferences } from './source-references.store';

describe('TypeormSourceReferences, the cases its fake passes too', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  sourceReferencesCases(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url);
    await dataSource.initialize();
    const manager = dataSource.manager;
    const [partnerId, otherPartnerId] = await insertTestPartners(manager, 'acme', 'beta');
    const pricingModelId = (
      await new TypeormPricingModelsStore(manager).insert(partnerId!, {
        name: 'Standard',
        type: '0',
        uniqueCallerSeconds: 3600,
        conditions: parsePricingConditions('conditions', [
          { cost_per_lead: '1', min_duration: '0', from_time: '00:00', to_time: '24:00', weekdays: 'mon' },
        ]),
      })
    ).id;
    let count = 0;
    return {
      references: new TypeormSourceReferences(manager),
      partnerId: partnerId!,
      otherPartnerId: otherPartnerId!,
      newCustomer: async () =>
        (
          await new TypeormCustomersStore(manager).insert(partnerId!, {
            name: `Customer ${++count}`,
            custnr: `C-${count}`,
            corporateid: null,
            email: null,
            dncsClassName: null,
            receiveMonthlyReport: false,
            serviceCallerId: false,
            customFields: {},
          })
        ).id,
      newCampaign: async (customerId) =>
        (
          await new TypeormCampaignsStore(manager).insert(partnerId!, customerId, {
            name: `Campaign ${++count}`,
            pricingModelId,
            partnerCampaignId: null,
            email: null,
            smsnumber: null,
            vmGreetingId: null,
            notifyOnMissedCall: false,
            notifyOnNewVoicemail: false,
            vmDivertAll: false,
            vmDivertBusy: false,
            vmDivertNoanswer: false,
          })
        ).id,
      newGreeting: async (customerId) =>
        (await new TypeormGreetingsStore(manager).insert(partnerId!, {
          customerId,
          name: `Greeting ${++count}`,
          recordPin: String(600000 + count),
        }))!.id,
    };
  });
});
