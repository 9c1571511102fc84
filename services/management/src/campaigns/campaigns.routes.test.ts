import { parsePricingConditions } from '@trackline/domain';
import { FakeCustomersStore } from '../customers/fake-customers.store';
import { inlineUnitOfWork } from '../db/unit-of-work';
import type { ApiRecord } from '../http/api-response';
import type { AuthenticatedPartner, HttpMethod, RouteDefinition } from '../http/route-definition';
import { FakePricingModelsStore } from '../pricing-models/fake-pricing-models.store';
import {
  answerRecords,
  callRoute,
  expect400,
  refusal,
  routePartner,
  type RouteAnswer,
} from '../test-support/route-calls';
import type { AttachedSource } from './campaign';
import type { CampaignSources, CustomerGreetings } from './campaign-references';
import { campaignRoutes } from './campaigns.routes';
import { CampaignsService } from './campaigns.service';
import { FakeCampaignsStore } from './fake-campaigns.store';

const ACME = routePartner('1', 'acme');
const BETA = routePartner('2', 'beta');
const CREATED_AT = new Date('2026-01-01T08:30:00Z');
const LATER = new Date('2026-02-03T10:11:12Z');

class ListedSources implements CampaignSources {
  readonly byCampaign = new Map<string, AttachedSource[]>();
  async sourcesAttached(
    _partnerId: string,
    campaignIds: readonly string[],
  ): Promise<Map<string, AttachedSource[]>> {
    return new Map([...this.byCampaign].filter(([id]) => campaignIds.includes(id)));
  }
}

/** Greetings by id → [partnerId, customerId]. */
class ListedGreetings implements CustomerGreetings {
  readonly owners = new Map<string, [string, string]>();
  async greetingBelongsToCustomer(
    partnerId: string,
    customerId: string,
    greetingId: string,
  ): Promise<boolean> {
    const owner = this.owners.get(greetingId);
    return owner !== undefined && owner[0] === partnerId && owner[1] === customerId;
  }
}

describe('campaign routes', () => {
  let routes: RouteDefinition[];
  let service: CampaignsService;
  let sources: ListedSources;
  let greetings: ListedGreetings;
  let customerId: string;
  let otherCustomerId: string;
  let betaCustomerId: string;
  let pricingModelId: string;
  let otherPricingModelId: string;
  let betaPricingModelId: string;

  beforeEach(async () => {
    const customers = new FakeCustomersStore();
    const pricingModels = new FakePricingModelsStore();
    const campaigns = new FakeCampaignsStore(() => CREATED_AT);
    sources = new ListedSources();
    greetings = new ListedGreetings();
    service = new CampaignsService({
      campaigns,
      customers,
      pricingModels,
      greetings,
      sources,
      deletion: inlineUnitOfWork({ campaigns, sources }),
    });
    routes = campaignRoutes(service);

    const customer = (partnerId: string, custnr: string) =>
      customers.insert(partnerId, {
        name: custnr,
        custnr,
        corporateid: null,
        email: null,
        dncsClassName: null,
        receiveMonthlyReport: false,
        serviceCallerId: false,
        customFields: {},
      });
    customerId = (await customer(ACME.id, 'K-1')).id;
    otherCustomerId = (await customer(ACME.id, 'K-2')).id;
    betaCustomerId = (await customer(BETA.id, 'K-1')).id;
    const model = (partnerId: string, name: string) =>
      pricingModels.insert(partnerId, {
        name,
        type: '0',
        uniqueCallerSeconds: 0,
        conditions: parsePricingConditions('conditions', [
          {
            cost_per_lead: '10.00',
            min_duration: '0',
            from_time: '00:00',
            to_time: '24:00',
            weekdays: 'mon',
          },
        ]),
      });
    pricingModelId = (await model(ACME.id, 'Standard')).id;
    otherPricingModelId = (await model(ACME.id, 'Premium')).id;
    betaPricingModelId = (await model(BETA.id, 'Beta')).id;
  });

  async function call(
    method: HttpMethod,
    path: string,
    input: {
      partner?: AuthenticatedPartner;
      params?: Record<string, string>;
      body?: Record<string, unknown>;
    } = {},
  ): Promise<RouteAnswer> {
    return callRoute(routes, method, path, { ...input, partner: input.partner ?? ACME, now: LATER });
  }

  const records = (answer: RouteAnswer): ApiRecord[] => answerRecords(answer, 'campaigns');

  function post(body: Record<string, unknown> = {}, customer = customerId): Promise<RouteAnswer> {
    return call('POST', '/customers/:customerId/campaigns', {
      params: { customerId: customer },
      body: { name: 'Spring', pricing_model_id: pricingModelId, ...body },
    });
  }

  async function create(body: Record<string, unknown> = {}, customer = customerId): Promise<ApiRecord> {
    // A created campaign is a single object: `{ "campaigns": {...} }`.
    const answer = await post(body, customer);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['campaigns']);
    expect(Array.isArray(answer.body.campaigns)).toBe(false);
    return answer.body.campaigns as ApiRecord;
  }

  const PATH = '/customers/:customerId/campaigns/:campaignId';
  const one = (
    campaignId: string,
    extra: { partner?: AuthenticatedPartner; body?: Record<string, unknown>; customer?: string } = {},
  ) => ({ params: { customerId: extra.customer ?? customerId, campaignId }, ...extra });

  it('exposes the five campaign operations', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /customers/:customerId/campaigns',
      'POST /customers/:customerId/campaigns',
      'GET /customers/:customerId/campaigns/:campaignId',
      'PUT /customers/:customerId/campaigns/:campaignId',
      'DELETE /customers/:customerId/campaigns/:campaignId',
    ]);
  });

  it('answers a created campaign as a single object with every seed field, state "0"', async () => {
    expect(await create()).toEqual({
      campaign_id: '1',
      timestamp: '2026-01-01 08:30:00',
      expire: null,
      pricing_model_id: pricingModelId,
      notify_on_missed_call: '0',
      notify_on_new_voicemail: '0',
      vm_divert_all: '0',
      vm_divert_busy: '0',
      vm_divert_noanswer: '0',
      sources: null,
      partner_campaign_id: null,
      name: 'Spring',
      email: null,
      smsnumber: null,
      vm_greeting_id: null,
      state: '0',
    });
  });

  it('accepts every optional field, normalising smsnumber in the partner’s country', async () => {
    greetings.owners.set('7', [ACME.id, customerId]);
    const record = await create({
      partner_campaign_id: 'ext-42',
      email: 'leads@example.no',
      smsnumber: '912 34 567',
      vm_greeting_id: '7',
      notify_on_missed_call: '1',
      notify_on_new_voicemail: '1',
      vm_divert_all: '1',
      vm_divert_busy: '1',
      vm_divert_noanswer: '1',
    });
    expect(record).toMatchObject({
      partner_campaign_id: 'ext-42',
      email: 'leads@example.no',
      smsnumber: '+4791234567',
      vm_greeting_id: '7',
      notify_on_missed_call: '1',
      notify_on_new_voicemail: '1',
      vm_divert_all: '1',
      vm_divert_busy: '1',
      vm_divert_noanswer: '1',
    });
  });

  it.each([
    [{ name: undefined }, 'name', 'is required'],
    [{ pricing_model_id: undefined }, 'pricing_model_id', 'is required'],
    [{ name: 'x'.repeat(101) }, 'name', 'must be at most 100 characters'],
    [{ vm_divert_all: 'yes' }, 'vm_divert_all', 'must be "0" or "1"'],
    [{ notify_on_missed_call: '2' }, 'notify_on_missed_call', 'must be "0" or "1"'],
    [{ email: 'not-an-address' }, 'email', 'must be a valid e-mail address'],
    [{ smsnumber: 'call me' }, 'smsnumber', 'must be a phone number'],
    [{ partner_campaign_id: 'p'.repeat(46) }, 'partner_campaign_id', 'must be at most 45 characters'],
    [{ state: '1' }, 'state', 'is not a known field'],
    [{ pricing_model_id: 'standard' }, 'pricing_model_id', 'must name one of your pricing models'],
    [{ vm_greeting_id: 'seven' }, 'vm_greeting_id', 'must name a voicemail greeting of this customer'],
    [{ vm_greeting_id: '99' }, 'vm_greeting_id', 'must name a voicemail greeting of this customer'],
  ])('refuses %p naming %s', async (body, field, rule) => {
    await expect400(post(body), field, rule);
  });

  it('refuses another partner’s pricing model and another customer’s greeting', async () => {
    await expect400(
      post({ pricing_model_id: betaPricingModelId }),
      'pricing_model_id',
      'must name one of your pricing models',
    );
    greetings.owners.set('8', [ACME.id, otherCustomerId]);
    await expect400(
      post({ vm_greeting_id: '8' }),
      'vm_greeting_id',
      'must name a voicemail greeting of this customer',
    );
  });

  it.each([['999'], ['abc'], ['0']])('answers 404 for customer %p', async (customer) => {
    refusal(await post({}, customer), 404);
    refusal(await call('GET', '/customers/:customerId/campaigns', { params: { customerId: customer } }), 404);
  });

  it('keeps partners and customers apart', async () => {
    const created = await create();
    const id = created.campaign_id as string;
    refusal(await post({}, betaCustomerId), 404);
    for (const [partner, customer] of [
      [BETA, customerId],
      [BETA, betaCustomerId],
      [ACME, otherCustomerId],
    ] as const) {
      for (const [method, body] of [
        ['GET', {}],
        ['PUT', { name: 'stolen' }],
        ['DELETE', {}],
      ] as const) {
        refusal(await call(method, PATH, one(id, { partner, customer, body })), 404);
      }
    }
    expect(
      records(
        await call('GET', '/customers/:customerId/campaigns', { params: { customerId: otherCustomerId } }),
      ),
    ).toEqual([]);
    expect(records(await call('GET', PATH, one(id)))).toEqual([created]);
  });

  it('lists a customer’s campaigns in id order with their sources', async () => {
    const first = await create({ name: 'One' });
    const second = await create({ name: 'Two' });
    await create({ name: 'Elsewhere' }, otherCustomerId);
    sources.byCampaign.set(second.campaign_id as string, [
      { id: '31', name: 'Finn ad' },
      { id: '32', name: 'Radio' },
    ]);
    const listed = records(await call('GET', '/customers/:customerId/campaigns', { params: { customerId } }));
    expect(listed.map((record) => [record.name, record.sources])).toEqual([
      ['One', null],
      ['Two', { '31': 'Finn ad', '32': 'Radio' }],
    ]);
    expect(listed[0]).toEqual(first);
  });

  it('updates name, flags, contact, greeting and pricing model, keeping what is left out', async () => {
    const created = await create({ email: 'a@example.no', partner_campaign_id: 'ext-1' });
    greetings.owners.set('5', [ACME.id, customerId]);
    const [updated] = records(
      await call(
        'PUT',
        PATH,
        one(created.campaign_id as string, {
          body: {
            name: 'Summer',
            vm_divert_busy: '1',
            smsnumber: '+47 22 33 44 55',
            vm_greeting_id: '5',
            pricing_model_id: otherPricingModelId.toUpperCase(),
          },
        }),
      ),
    );
    expect(updated).toEqual({
      ...created,
      name: 'Summer',
      vm_divert_busy: '1',
      smsnumber: '+4722334455',
      vm_greeting_id: '5',
      pricing_model_id: otherPricingModelId,
    });
    const [cleared] = records(
      await call(
        'PUT',
        PATH,
        one(created.campaign_id as string, { body: { email: '', vm_greeting_id: null } }),
      ),
    );
    expect(cleared).toMatchObject({ email: null, vm_greeting_id: null, partner_campaign_id: 'ext-1' });
  });

  it('pauses, closes (dating expire) and re-opens a campaign', async () => {
    const id = (await create()).campaign_id as string;
    const state = async (value: string) =>
      records(await call('PUT', PATH, one(id, { body: { state: value } })))[0]!;
    expect(await state('1')).toMatchObject({ state: '1', expire: null });
    expect(await state('2')).toMatchObject({ state: '2', expire: '2026-02-03 10:11:12' });
    expect(await state('2')).toMatchObject({ state: '2', expire: '2026-02-03 10:11:12' });
    expect(await state('0')).toMatchObject({ state: '0', expire: null });
  });

  it.each([
    [{ state: '3' }, 'state', 'must be "0" (active), "1" (paused) or "2" (closed)'],
    [{ state: 'active' }, 'state', 'must be "0" (active), "1" (paused) or "2" (closed)'],
    [{ vm_divert_noanswer: 'true' }, 'vm_divert_noanswer', 'must be "0" or "1"'],
    [{ pricing_model_id: null }, 'pricing_model_id', 'must not be null'],
    [{ name: ' ' }, 'name', 'must not be empty'],
    [{ timestamp: '2026-01-01 00:00:00' }, 'timestamp', 'is not a known field'],
  ])('refuses the PUT %p naming %s and changes nothing', async (body, field, rule) => {
    const created = await create();
    await expect400(call('PUT', PATH, one(created.campaign_id as string, { body })), field, rule);
    expect(records(await call('GET', PATH, one(created.campaign_id as string)))).toEqual([created]);
  });

  it('refuses to delete a campaign a source is attached to, naming the sources', async () => {
    const id = (await create()).campaign_id as string;
    sources.byCampaign.set(id, [{ id: '31', name: 'Finn ad' }]);
    expect(refusal(await call('DELETE', PATH, one(id)), 403)).toBe(
      `Campaign ${id} is used by source 31 (Finn ad); detach or close them first, or close the campaign with state 2`,
    );
    sources.byCampaign.delete(id);
    const [deleted] = records(await call('DELETE', PATH, one(id)));
    expect(deleted).toMatchObject({ campaign_id: id, name: 'Spring' });
    refusal(await call('GET', PATH, one(id)), 404);
  });
});
