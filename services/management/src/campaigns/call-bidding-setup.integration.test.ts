import { decodeStoredPricingConditions } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import {
  createManagementRoutes,
  createManagementServices,
  type ManagementServices,
} from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { createManagementDataSource } from '../composition/management-data-source';
import type { ApiRecord } from '../http/api-response';
import type {
  AuthenticatedPartner,
  HttpMethod,
  RouteContext,
  RouteDefinition,
} from '../http/route-definition';
import { callRoute, refusal, type RouteAnswer } from '../test-support/route-calls';
import { cdrsStoreOn } from '../composition/stores-on-manager';

// The seed's call-bidding flow through the composed routes on a real database: customer → pricing
// model → campaign → source attached to the campaign, with the form-style string values the seed
// sends. (The same over HTTPS, in JSON and XML, belongs with the HTTP app.)
describe('call-bidding set-up (seed flow)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let services: ManagementServices;
  let routes: RouteDefinition[];
  let partner: AuthenticatedPartner;
  const now = new Date('2026-03-02T09:00:00Z');

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    services = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    });
    routes = createManagementRoutes(services);
    await services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'correct horse',
      signingSecret: 'sixteen-chars-ok',
    });
    await services.numbers.add('acme', 'static', ['+4722000001'], now);
    partner = (await services.partners.findForDigest('acme-api'))!.partner;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  function call(
    method: HttpMethod,
    path: string,
    input: Partial<Pick<RouteContext, 'params' | 'body'>> = {},
  ): Promise<RouteAnswer> {
    return callRoute(routes, method, path, { partner, now, ...input });
  }

  /** The one record of a `{ "<plural>": [ {...} ] }` answer. */
  function only(answer: RouteAnswer): ApiRecord {
    const lists = Object.values((answer.body ?? {}) as Record<string, unknown>);
    const records = lists[0];
    if (answer.status >= 300 || lists.length !== 1 || !Array.isArray(records) || records.length !== 1)
      throw new Error(`expected one record, got ${answer.status} ${answer.text}`);
    return records[0] as ApiRecord;
  }

  it('creates the chain, shows who uses what, prices from the model and guards deletes', async () => {
    const customer = only(
      await call('POST', '/customers', { body: { name: 'Kari Bil AS', custnr: '5001' } }),
    );
    const customerId = customer.customer_id as string;

    const pricingModel = only(
      await call('POST', '/pricing_models', {
        body: {
          name: 'CPL weekdays',
          type: '0',
          unique_caller_time: '0',
          conditions:
            '[{"cost_per_lead":"50.00","min_duration":"30","from_time":"08:00","to_time":"16:00","weekdays":"mon,tue,wed,thu,fri"}]',
        },
      }),
    );
    const pricingModelId = pricingModel.pricing_model_id as string;
    expect(pricingModel).toMatchObject({ type: '0', unique_caller_time: '0', used_by: [] });

    const created = await call('POST', '/customers/:customerId/campaigns', {
      params: { customerId },
      body: { name: 'Spring sale', pricing_model_id: pricingModelId },
    });
    // A created campaign is a single object: `{ "campaigns": {...} }`.
    expect(created.body).toEqual({
      campaigns: expect.objectContaining({
        name: 'Spring sale',
        pricing_model_id: pricingModelId,
        state: '0',
        sources: null,
        expire: null,
      }),
    });
    const campaignId = (created.body.campaigns as ApiRecord).campaign_id as string;

    const source = only(
      await call('POST', '/sources', {
        body: { customer_id: customerId, name: 'Finn ad', phonenr: '91234567', campaign_id: campaignId },
      }),
    );
    const sourceId = source.source_id as string;
    expect(source).toMatchObject({ campaign_id: campaignId, destnr: '+4722000001', phonenr: '+4791234567' });

    const campaign = only(
      await call('GET', '/customers/:customerId/campaigns/:campaignId', {
        params: { customerId, campaignId },
      }),
    );
    expect(campaign.sources).toEqual({ [sourceId]: 'Finn ad' });
    expect(
      only(await call('GET', '/pricing_models/:pricingModelId', { params: { pricingModelId } })).used_by,
    ).toEqual([{ id: campaignId, name: 'Spring sale' }]);

    // A price change applies to later calls: CDR ingestion reads the model as it is now.
    const pricing = () => cdrsStoreOn(dataSource.manager).findCampaignPricing(partner.id, campaignId);
    const conditionsNow = async () => decodeStoredPricingConditions((await pricing())?.conditions);
    expect(await conditionsNow()).toEqual([
      expect.objectContaining({ costPerLead: '50.00', minDuration: 30 }),
    ]);
    await call('PUT', '/pricing_models/:pricingModelId', {
      params: { pricingModelId },
      body: { conditions: '[{"cost_per_lead":"65"}]' },
    });
    expect(await pricing()).toMatchObject({ campaignId, state: '0', pricingModelId });
    expect(await conditionsNow()).toMatchObject([{ costPerLead: '65.00', minDuration: 30 }]);

    refusal(await call('DELETE', '/pricing_models/:pricingModelId', { params: { pricingModelId } }), 403);
    expect(
      refusal(
        await call('DELETE', '/customers/:customerId/campaigns/:campaignId', {
          params: { customerId, campaignId },
        }),
        403,
      ),
    ).toContain(`Campaign ${campaignId} is used by source ${sourceId} (Finn ad)`);

    // Closing the source keeps it attached (its calls stay attributed), so the campaign stays.
    await call('DELETE', '/sources/:sourceId', { params: { sourceId } });
    refusal(
      await call('DELETE', '/customers/:customerId/campaigns/:campaignId', {
        params: { customerId, campaignId },
      }),
      403,
    );
    const closed = only(
      await call('PUT', '/customers/:customerId/campaigns/:campaignId', {
        params: { customerId, campaignId },
        body: { state: '2' },
      }),
    );
    expect(closed).toMatchObject({ state: '2', expire: '2026-03-02 09:00:00' });
    expect(await pricing()).toMatchObject({ state: '2' });
  });
});
