import { NotFoundError, parsePricingConditions, ValidationError } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { storesOn } from '../composition/stores-on-manager';
import type { TypeormCustomersStore } from '../customers/customers.store';
import { createManagementDataSource } from '../composition/management-data-source';
import type { CampaignValues } from './campaign';
import type { CampaignsService } from './campaigns.service';
import type { TypeormCampaignsStore } from './campaigns.store';
import { campaignsStoreCases, campaignValues } from './campaigns.store.cases';
import { insertTestPartners } from '../test-support/test-partners';
import {
  insertTestCustomer,
  insertTestPricingModel,
  onOwnDatabase,
} from '../test-support/store-case-fixtures';

describe('TypeormCampaignsStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormCampaignsStore;
  let customers: TypeormCustomersStore;
  let service: CampaignsService;
  let acme: string;
  let beta: string;
  let customer: string;
  let otherCustomer: string;
  let pricingModel: string;
  let greeting: string;
  let otherCustomersGreeting: string;

  function values(overrides: Partial<CampaignValues> = {}): CampaignValues {
    return campaignValues(pricingModel, greeting, overrides);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    // The stores and the service as the composition root builds them.
    const stores = storesOn(dataSource.manager);
    store = stores.campaigns;
    customers = stores.customers;
    const { pricingModels, greetings } = stores;
    service = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    }).campaigns;

    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
    const newCustomer = async (custnr: string) =>
      (
        await customers.insert(acme, {
          name: custnr,
          custnr,
          corporateid: null,
          email: null,
          dncsClassName: null,
          receiveMonthlyReport: false,
          serviceCallerId: false,
          customFields: {},
        })
      ).id;
    customer = await newCustomer('K-1');
    otherCustomer = await newCustomer('K-2');
    pricingModel = (
      await pricingModels.insert(acme, {
        name: 'Standard',
        type: '0',
        uniqueCallerSeconds: 0,
        conditions: parsePricingConditions('conditions', [
          {
            cost_per_lead: '12.50',
            min_duration: '30',
            from_time: '08:00',
            to_time: '16:00',
            weekdays: 'mon',
          },
        ]),
      })
    ).id;
    greeting = (await greetings.insert(acme, { customerId: customer, name: 'Hello', recordPin: '123456' }))!
      .id;
    otherCustomersGreeting = (await greetings.insert(acme, {
      customerId: otherCustomer,
      name: 'Other',
      recordPin: '654321',
    }))!.id;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('stores every column and reads it back, active and without expiry', async () => {
    const campaign = await store.insert(acme, customer, values());
    expect(campaign).toEqual({
      id: expect.stringMatching(/^[1-9]\d*$/),
      partnerId: acme,
      customerId: customer,
      ...values(),
      state: '0',
      created: expect.any(Date),
      expire: null,
      modified: expect.any(Date),
    });
    expect(await store.findById(acme, customer, campaign.id)).toEqual(campaign);
  });

  it('keeps partners and customers apart', async () => {
    const campaign = await store.insert(acme, customer, values({ name: 'Private' }));
    expect(await store.findById(acme, otherCustomer, campaign.id)).toBeNull();
    expect(await store.findById(beta, customer, campaign.id)).toBeNull();
    expect(await store.update(acme, otherCustomer, campaign.id, { name: 'stolen' })).toBeNull();
    expect(await store.update(beta, customer, campaign.id, { name: 'stolen' })).toBeNull();
    await store.delete(acme, otherCustomer, campaign.id);
    await store.delete(beta, customer, campaign.id);
    expect(await store.findById(acme, customer, campaign.id)).toEqual(campaign);
    expect(await store.listForCustomer(acme, otherCustomer)).toEqual([]);
  });

  it('updates the columns given, clears nullable ones and sets state with expire', async () => {
    const campaign = await store.insert(acme, customer, values());
    const expire = new Date('2026-02-03T10:11:12Z');
    const updated = await store.update(acme, customer, campaign.id, {
      name: 'Summer',
      email: null,
      vmGreetingId: null,
      vmDivertAll: false,
      state: '2',
      expire,
    });
    expect(updated).toEqual({
      ...campaign,
      name: 'Summer',
      email: null,
      vmGreetingId: null,
      vmDivertAll: false,
      state: '2',
      expire,
      modified: expect.any(Date),
    });
  });

  it('answers a reference that vanished before the write as the check would have', async () => {
    const missingModel = '00000000-0000-4000-8000-000000000000';
    await expect(store.insert(acme, customer, values({ pricingModelId: missingModel }))).rejects.toEqual(
      new ValidationError('pricing_model_id', 'must name one of your pricing models'),
    );
    await expect(store.insert(acme, customer, values({ vmGreetingId: '999999' }))).rejects.toEqual(
      new ValidationError('vm_greeting_id', 'must name a voicemail greeting of this customer'),
    );
    await expect(store.insert(acme, '999999', values())).rejects.toBeInstanceOf(NotFoundError);
    const campaign = await store.insert(acme, customer, values());
    await expect(store.update(acme, customer, campaign.id, { pricingModelId: missingModel })).rejects.toEqual(
      new ValidationError('pricing_model_id', 'must name one of your pricing models'),
    );
  });

  it('reports which campaigns use which pricing models', async () => {
    const partnerCustomer = await customers.insert(acme, {
      name: 'Users',
      custnr: 'K-users',
      corporateid: null,
      email: null,
      dncsClassName: null,
      receiveMonthlyReport: false,
      serviceCallerId: false,
      customFields: {},
    });
    const first = await store.insert(acme, partnerCustomer.id, values({ name: 'A', vmGreetingId: null }));
    const second = await store.insert(acme, partnerCustomer.id, values({ name: 'B', vmGreetingId: null }));
    const users = await store.campaignsUsing(acme, [pricingModel]);
    expect(users.get(pricingModel)).toEqual(
      expect.arrayContaining([
        { id: first.id, name: 'A' },
        { id: second.id, name: 'B' },
      ]),
    );
    expect((await store.campaignsUsing(beta, [pricingModel])).size).toBe(0);
    expect((await store.campaignsUsing(acme, [])).size).toBe(0);
  });

  it('goes with its customer when the customer is deleted', async () => {
    const gone = await customers.insert(acme, {
      name: 'Gone',
      custnr: 'K-gone',
      corporateid: null,
      email: null,
      dncsClassName: null,
      receiveMonthlyReport: false,
      serviceCallerId: false,
      customFields: {},
    });
    const campaign = await store.insert(acme, gone.id, values({ vmGreetingId: null }));
    await customers.delete(acme, gone.id);
    expect(await store.findById(acme, gone.id, campaign.id)).toBeNull();
  });

  it('checks references through the service: the customer’s own greeting, the partner’s own model', async () => {
    const created = await service.create(acme, customer, values({ vmGreetingId: greeting }));
    expect(created.campaign.vmGreetingId).toBe(greeting);
    await expect(
      service.create(acme, customer, values({ vmGreetingId: otherCustomersGreeting })),
    ).rejects.toEqual(
      new ValidationError('vm_greeting_id', 'must name a voicemail greeting of this customer'),
    );
    await expect(service.create(beta, customer, values())).rejects.toBeInstanceOf(NotFoundError);
    expect(created.campaign.pricingModelId).toBe(pricingModel);
    await service.delete(acme, customer, created.campaign.id);
    expect(await store.findById(acme, customer, created.campaign.id)).toBeNull();
  });
});

describe('TypeormCampaignsStore, the cases its fake passes too', () => {
  campaignsStoreCases(
    onOwnDatabase(async ({ manager }) => {
      const [partnerId, otherPartnerId] = await insertTestPartners(manager, 'acme', 'beta');
      let count = 0;
      return {
        store: storesOn(manager).campaigns,
        partnerId: partnerId!,
        otherPartnerId: otherPartnerId!,
        newCustomer: () => insertTestCustomer(manager, partnerId!, `C-${++count}`),
        pricingModelIds: [
          await insertTestPricingModel(manager, partnerId!, 'One'),
          await insertTestPricingModel(manager, partnerId!, 'Two'),
        ],
      };
    }),
  );
});
