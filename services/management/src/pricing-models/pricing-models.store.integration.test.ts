import { ForbiddenError, parsePricingConditions } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { storesOn } from '../composition/stores-on-manager';
import { createManagementDataSource } from '../composition/management-data-source';
import type { PricingModelsService } from './pricing-models.service';
import type { TypeormPricingModelsStore } from './pricing-models.store';
import { pricingModelValues, pricingModelsStoreCases, SUNDAY } from './pricing-models.store.cases';
import { insertTestPartners } from '../test-support/test-partners';
import { onOwnDatabase } from '../test-support/store-case-fixtures';

const values = pricingModelValues;

describe('TypeormPricingModelsStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: TypeormPricingModelsStore;
  let service: PricingModelsService;
  let acme: string;
  let beta: string;
  let customer: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    // The store and the service as the composition root builds them.
    const stores = storesOn(dataSource.manager);
    store = stores.pricingModels;
    service = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    }).pricingModels;
    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
    customer = (
      await stores.customers.insert(acme, {
        name: 'Kari AS',
        custnr: 'K-1',
        corporateid: null,
        email: null,
        dncsClassName: null,
        receiveMonthlyReport: false,
        serviceCallerId: false,
        customFields: {},
      })
    ).id;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('stores and reads back a model, cost_per_lead as an exact two-decimal string', async () => {
    const model = await store.insert(acme, values());
    expect(model).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      partnerId: acme,
      ...values(),
      created: expect.any(Date),
      modified: expect.any(Date),
    });
    expect(await store.findById(acme, model.id)).toEqual(model);
    const [row] = (await dataSource.query(
      `SELECT conditions->1->>'cost_per_lead' AS price, jsonb_typeof(conditions->1->'cost_per_lead') AS kind,
              unique_caller_time::text AS unique
         FROM pricing_models WHERE id = $1`,
      [model.id],
    )) as Array<{ price: string; kind: string; unique: string }>;
    expect(row).toEqual({ price: '0.10', kind: 'string', unique: '3600' });
  });

  it('never finds, changes or deletes another partner’s model', async () => {
    const model = await store.insert(acme, values({ name: 'Private' }));
    expect(await store.findById(beta, model.id)).toBeNull();
    expect(await store.update(beta, model.id, { name: 'stolen' })).toBeNull();
    await store.delete(beta, model.id);
    expect(await store.findById(acme, model.id)).toEqual(model);
    expect(await store.list(beta)).toEqual([]);
  });

  it('lists oldest first and updates only the columns given', async () => {
    const listed = await store.list(acme);
    expect(listed.map((model) => model.created.getTime())).toEqual(
      [...listed.map((model) => model.created.getTime())].sort((a, b) => a - b),
    );
    const model = await store.insert(acme, values({ name: 'Before' }));
    const conditions = parsePricingConditions('conditions', [SUNDAY]);
    const updated = await store.update(acme, model.id, { name: 'After', conditions });
    expect(updated).toMatchObject({ name: 'After', uniqueCallerSeconds: 3600, conditions });
    expect(updated!.modified.getTime()).toBeGreaterThanOrEqual(model.modified.getTime());
  });

  it('keeps two concurrent PUTs that change different conditions', async () => {
    const { model } = await service.create(acme, values());
    await Promise.all([
      service.update(acme, model.id, { conditionsPatch: [{ cost_per_lead: '13' }] }),
      service.update(acme, model.id, { conditionsPatch: [{}, { cost_per_lead: '0.20' }] }),
    ]);
    const { model: after } = await service.get(acme, model.id);
    expect(after.conditions.map((condition) => condition.costPerLead)).toEqual(['13.00', '0.20']);
  });

  it('shows the campaigns using a model and refuses to delete it while one does', async () => {
    const { model } = await service.create(acme, values({ name: 'In use' }));
    const { campaigns } = storesOn(dataSource.manager);
    const campaign = await campaigns.insert(acme, customer, {
      name: 'Spring',
      pricingModelId: model.id,
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
    expect((await service.get(acme, model.id)).usedBy).toEqual([{ id: campaign.id, name: 'Spring' }]);
    expect((await service.list(acme)).find((view) => view.model.id === model.id)?.usedBy).toEqual([
      { id: campaign.id, name: 'Spring' },
    ]);
    await expect(service.delete(acme, model.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await store.findById(acme, model.id)).not.toBeNull();

    await campaigns.delete(acme, customer, campaign.id);
    await service.delete(acme, model.id);
    expect(await store.findById(acme, model.id)).toBeNull();
  });
});

describe('TypeormPricingModelsStore, the cases its fake passes too', () => {
  pricingModelsStoreCases(
    onOwnDatabase(async ({ manager }) => {
      let partners = 0;
      return {
        store: storesOn(manager).pricingModels,
        newPartner: async () => (await insertTestPartners(manager, `case-${++partners}`))[0]!,
      };
    }),
  );
});
