import { parsePricingConditions } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource, EntityManager } from 'typeorm';
import { TypeormCampaignsStore } from '../campaigns/campaigns.store';
import { TypeormCustomersStore } from '../customers/customers.store';
import { createManagementDataSource } from '../composition/management-data-source';
import { TypeormPricingModelsStore } from '../pricing-models/pricing-models.store';

/**
 * The setup of a shared store-case suite run against the real store: a database of its own, made
 * when the suite's beforeAll asks and dropped after the suite.
 */
export function onOwnDatabase<F>(build: (dataSource: DataSource) => Promise<F>): () => Promise<F> {
  let database: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });
  return async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    return build(dataSource);
  };
}

/** A customer of the partner with only the required values set; answers its id. */
export async function insertTestCustomer(
  manager: EntityManager,
  partnerId: string,
  custnr: string,
): Promise<string> {
  const customer = await new TypeormCustomersStore(manager).insert(partnerId, {
    name: `Customer ${custnr}`,
    custnr,
    corporateid: null,
    email: null,
    dncsClassName: null,
    receiveMonthlyReport: false,
    serviceCallerId: false,
    customFields: {},
  });
  return customer.id;
}

/** A pricing model of the partner with one condition; answers its id. */
export async function insertTestPricingModel(
  manager: EntityManager,
  partnerId: string,
  name: string,
): Promise<string> {
  const model = await new TypeormPricingModelsStore(manager).insert(partnerId, {
    name,
    type: '0',
    uniqueCallerSeconds: 3600,
    conditions: parsePricingConditions('conditions', [
      { cost_per_lead: '1', min_duration: '0', from_time: '00:00', to_time: '24:00', weekdays: 'mon' },
    ]),
  });
  return model.id;
}

/** A campaign of the customer with no notifications, diversions or greeting; answers its id. */
export async function insertTestCampaign(
  manager: EntityManager,
  partnerId: string,
  customerId: string,
  pricingModelId: string,
  name: string,
): Promise<string> {
  const campaign = await new TypeormCampaignsStore(manager).insert(partnerId, customerId, {
    name,
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
  });
  return campaign.id;
}
