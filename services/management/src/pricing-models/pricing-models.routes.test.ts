import { FakeCampaignsStore } from '../campaigns/fake-campaigns.store';
import { inlineUnitOfWork } from '../db/unit-of-work';
import type { ApiRecord } from '../http/api-response';
import type { AuthenticatedPartner, HttpMethod, RouteDefinition } from '../http/route-definition';
import {
  answerRecords,
  callRoute,
  expect400,
  refusal,
  routePartner,
  type RouteAnswer,
} from '../test-support/route-calls';
import { FakePricingModelsStore } from './fake-pricing-models.store';
import { pricingModelRoutes } from './pricing-models.routes';
import { PricingModelsService } from './pricing-models.service';

const ACME = routePartner('1', 'acme');
const BETA = routePartner('2', 'beta');

const WEEKDAYS = {
  cost_per_lead: '12.5',
  min_duration: '30',
  from_time: '08:00',
  to_time: '16:00',
  weekdays: 'mon,tue,wed,thu,fri',
};
const SUNDAY = {
  cost_per_lead: '20',
  min_duration: '10',
  from_time: '00:00',
  to_time: '24:00',
  weekdays: 'sun',
};

describe('pricing model routes', () => {
  let routes: RouteDefinition[];
  let campaigns: FakeCampaignsStore;

  beforeEach(() => {
    const pricingModels = new FakePricingModelsStore();
    campaigns = new FakeCampaignsStore();
    routes = pricingModelRoutes(
      new PricingModelsService(
        pricingModels,
        campaigns,
        inlineUnitOfWork({ pricingModels, users: campaigns }),
      ),
    );
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
    return callRoute(routes, method, path, {
      ...input,
      partner: input.partner ?? ACME,
      now: new Date('2026-01-01T00:00:00Z'),
    });
  }

  const records = (answer: RouteAnswer): ApiRecord[] => answerRecords(answer, 'pricing_models');

  function post(body: Record<string, unknown> = {}, partner = ACME): Promise<RouteAnswer> {
    return call('POST', '/pricing_models', {
      partner,
      body: {
        name: 'Standard',
        type: '0',
        unique_caller_time: '0',
        conditions: JSON.stringify([WEEKDAYS]),
        ...body,
      },
    });
  }

  async function create(body: Record<string, unknown> = {}, partner = ACME): Promise<ApiRecord> {
    const [record] = records(await post(body, partner));
    return record!;
  }

  const one = (
    pricingModelId: string,
    extra: { partner?: AuthenticatedPartner; body?: Record<string, unknown> } = {},
  ) => ({
    params: { pricingModelId },
    ...extra,
  });

  it('exposes the five pricing model operations', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /pricing_models',
      'POST /pricing_models',
      'GET /pricing_models/:pricingModelId',
      'PUT /pricing_models/:pricingModelId',
      'DELETE /pricing_models/:pricingModelId',
    ]);
  });

  it('creates from a form (conditions as JSON text) and renders strings, money with two decimals', async () => {
    const record = await create({
      unique_caller_time: '3600',
      conditions: JSON.stringify([WEEKDAYS, SUNDAY]),
    });
    expect(record).toEqual({
      pricing_model_id: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      name: 'Standard',
      type: '0',
      unique_caller_time: '3600',
      conditions: [
        { ...WEEKDAYS, cost_per_lead: '12.50' },
        { ...SUNDAY, cost_per_lead: '20.00' },
      ],
      used_by: [],
    });
  });

  it('renders record and condition keys in the seed order', async () => {
    const record = await create({ conditions: JSON.stringify([WEEKDAYS]) });
    expect(Object.keys(record)).toEqual([
      'pricing_model_id',
      'name',
      'type',
      'unique_caller_time',
      'conditions',
      'used_by',
    ]);
    const [condition] = record.conditions as ApiRecord[];
    expect(Object.keys(condition!)).toEqual([
      'cost_per_lead',
      'min_duration',
      'from_time',
      'to_time',
      'weekdays',
    ]);
  });

  it('creates from a JSON body with a conditions array and numbers', async () => {
    const record = await create({
      type: 0,
      unique_caller_time: 60,
      conditions: [{ ...WEEKDAYS, cost_per_lead: '0.99', min_duration: 45 }],
    });
    expect(record).toMatchObject({
      type: '0',
      unique_caller_time: '60',
      conditions: [{ cost_per_lead: '0.99', min_duration: '45' }],
    });
  });

  it.each([
    [{ name: undefined }, 'name', 'is required'],
    [{ type: undefined }, 'type', 'is required'],
    [{ unique_caller_time: undefined }, 'unique_caller_time', 'is required'],
    [{ conditions: undefined }, 'conditions', 'is required'],
    [{ name: 'x'.repeat(101) }, 'name', 'must be at most 100 characters'],
    [{ type: '1' }, 'type', 'must be "0" (cost per lead)'],
    [{ type: 'CPL' }, 'type', 'must be "0" (cost per lead)'],
    [{ unique_caller_time: '-1' }, 'unique_caller_time', 'must be a whole number of seconds, 0 or more'],
    [{ unique_caller_time: '1.5' }, 'unique_caller_time', 'must be a whole number of seconds, 0 or more'],
    [{ conditions: '{not json' }, 'conditions', 'must be a JSON array'],
    [{ conditions: '[]' }, 'conditions', 'must hold at least one condition'],
    [
      { conditions: JSON.stringify([{ ...WEEKDAYS, cost_per_lead: '1.005' }]) },
      'conditions[0].cost_per_lead',
      'must be a non-negative decimal with at most two decimals',
    ],
    // A price larger than a call record's commission column (numeric(12,2)) could never be stored.
    [
      { conditions: JSON.stringify([{ ...WEEKDAYS, cost_per_lead: '99999999999.99' }]) },
      'conditions[0].cost_per_lead',
      'must be at most 9999999999.99',
    ],
    [
      { conditions: JSON.stringify([{ ...WEEKDAYS, cost_per_lead: '10000000000' }]) },
      'conditions[0].cost_per_lead',
      'must be at most 9999999999.99',
    ],
    [
      { conditions: JSON.stringify([WEEKDAYS, { ...SUNDAY, weekdays: 'sun,funday' }]) },
      'conditions[1].weekdays',
      'must be a comma-separated list of mon..sun',
    ],
    [{ conditions: JSON.stringify([{ ...WEEKDAYS, to_time: '25:00' }]) }, 'conditions[0].to_time', /HH:MM/],
    [
      { conditions: JSON.stringify([{ ...WEEKDAYS, price: '1' }]) },
      'conditions[0].price',
      'is not an allowed field',
    ],
    [{ colour: 'red' }, 'colour', 'is not a known field'],
  ])('refuses %p naming %s', async (body, field, rule) => {
    await expect400(post(body), field, rule);
  });

  it('merges PUT conditions by position: keys sent replace, others stay', async () => {
    const { pricing_model_id: id } = await create({ conditions: JSON.stringify([WEEKDAYS, SUNDAY]) });
    const [updated] = records(
      await call(
        'PUT',
        '/pricing_models/:pricingModelId',
        one(id as string, { body: { conditions: '[{"cost_per_lead": "15"}]' } }),
      ),
    );
    expect(updated!.conditions).toEqual([
      { ...WEEKDAYS, cost_per_lead: '15.00' },
      { ...SUNDAY, cost_per_lead: '20.00' },
    ]);
    const [read] = records(await call('GET', '/pricing_models/:pricingModelId', one(id as string)));
    expect(read).toEqual(updated);
  });

  it('changes name and unique_caller_time and keeps what is left out', async () => {
    const { pricing_model_id: id } = await create();
    const [updated] = records(
      await call(
        'PUT',
        '/pricing_models/:pricingModelId',
        one(id as string, { body: { name: 'Premium', unique_caller_time: '86400', type: '0' } }),
      ),
    );
    expect(updated).toMatchObject({
      name: 'Premium',
      unique_caller_time: '86400',
      type: '0',
      conditions: [{ ...WEEKDAYS, cost_per_lead: '12.50' }],
    });
  });

  it.each([
    [{ type: '1' }, 'type', 'must be "0" (cost per lead)'],
    [{ conditions: '[{"from_time": "17:00"}]' }, 'conditions[0].to_time', 'must be after from_time'],
    [{ conditions: '[{}, {"cost_per_lead": "1.00"}]' }, 'conditions[1].min_duration', 'is required'],
    [
      { conditions: '[{"cost_per_lead": "99999999999.99"}]' },
      'conditions[0].cost_per_lead',
      'must be at most 9999999999.99',
    ],
    [{ name: '' }, 'name', 'must not be empty'],
  ])('refuses the PUT %p naming %s and changes nothing', async (body, field, rule) => {
    const created = await create();
    await expect400(
      call('PUT', '/pricing_models/:pricingModelId', one(created.pricing_model_id as string, { body })),
      field,
      rule,
    );
    const [read] = records(
      await call('GET', '/pricing_models/:pricingModelId', one(created.pricing_model_id as string)),
    );
    expect(read).toEqual(created);
  });

  it('keeps partners apart: another partner’s id is 404 everywhere, lists hold only one’s own', async () => {
    const mine = await create({ name: 'Mine' });
    await create({ name: 'Theirs' }, BETA);
    const id = mine.pricing_model_id as string;
    expect(records(await call('GET', '/pricing_models')).map((record) => record.name)).toEqual(['Mine']);
    for (const [method, body] of [
      ['GET', {}],
      ['PUT', { name: 'stolen' }],
      ['DELETE', {}],
    ] as const) {
      refusal(await call(method, '/pricing_models/:pricingModelId', one(id, { partner: BETA, body })), 404);
    }
    const [read] = records(await call('GET', '/pricing_models/:pricingModelId', one(id)));
    expect(read).toEqual(mine);
  });

  it.each(['nope', '1', '00000000-0000-4000-8000-000000000000'])('answers 404 for id %p', async (id) => {
    refusal(await call('GET', '/pricing_models/:pricingModelId', one(id)), 404);
  });

  it('finds an id sent in upper case', async () => {
    const created = await create();
    const [read] = records(
      await call(
        'GET',
        '/pricing_models/:pricingModelId',
        one((created.pricing_model_id as string).toUpperCase()),
      ),
    );
    expect(read).toEqual(created);
  });

  it('shows the campaigns using a model and refuses to delete it while any does', async () => {
    const used = await create({ name: 'Used' });
    const unused = await create({ name: 'Unused' });
    const usedId = used.pricing_model_id as string;
    const campaignValues = {
      pricingModelId: usedId,
      partnerCampaignId: null,
      email: null,
      smsnumber: null,
      vmGreetingId: null,
      notifyOnMissedCall: false,
      notifyOnNewVoicemail: false,
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
    };
    const spring = await campaigns.insert(ACME.id, '10', { ...campaignValues, name: 'Spring' });
    const autumn = await campaigns.insert(ACME.id, '11', { ...campaignValues, name: 'Autumn' });

    expect(records(await call('GET', '/pricing_models')).map((record) => record.used_by)).toEqual([
      [
        { id: spring.id, name: 'Spring' },
        { id: autumn.id, name: 'Autumn' },
      ],
      [],
    ]);
    expect(refusal(await call('DELETE', '/pricing_models/:pricingModelId', one(usedId)), 403)).toBe(
      `Pricing model ${usedId} is used by campaigns ${spring.id} (Spring), ${autumn.id} (Autumn); ` +
        'move them to another pricing model or delete them first',
    );
    expect(records(await call('GET', '/pricing_models/:pricingModelId', one(usedId)))).toHaveLength(1);

    const [deleted] = records(
      await call('DELETE', '/pricing_models/:pricingModelId', one(unused.pricing_model_id as string)),
    );
    expect(deleted).toEqual(unused);
    refusal(
      await call('GET', '/pricing_models/:pricingModelId', one(unused.pricing_model_id as string)),
      404,
    );
  });
});
