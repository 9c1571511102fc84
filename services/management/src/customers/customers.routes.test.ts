import { inlineUnitOfWork } from '../db/unit-of-work';
import type { ApiRecord } from '../http/api-response';
import type { AuthenticatedPartner, HttpMethod, RouteDefinition } from '../http/route-definition';
import { RESERVED_FIELD_NAMES } from '../partners/custom-field-name';
import {
  answerRecords,
  callRoute,
  expect400,
  refusal,
  routePartner,
  type RouteAnswer,
} from '../test-support/route-calls';
import { FakeCustomersStore } from './fake-customers.store';
import type { CustomerCallRecords } from './customer-call-records';
import type { OpenSourcesCounter } from './open-sources-counter';
import { customerRoutes } from './customers.routes';
import { CustomersService } from './customers.service';

const ACME = routePartner('1', 'acme', { customer: ['custom_1', 'custom_2'], source: ['custom_9'] });
const BETA = routePartner('2', 'beta');

class CountingOpenSources implements OpenSourcesCounter {
  readonly open = new Map<string, number>();
  readonly heldBack = new Map<string, number>();
  async countOpenSources(_partnerId: string, customerId: string): Promise<number> {
    return this.open.get(customerId) ?? 0;
  }
  async countHeldBackSources(_partnerId: string, customerId: string): Promise<number> {
    return this.heldBack.get(customerId) ?? 0;
  }
}

class KnownCallRecords implements CustomerCallRecords {
  readonly customers = new Set<string>();
  async hasCallRecords(_partnerId: string, customerId: string): Promise<boolean> {
    return this.customers.has(customerId);
  }
}

describe('customer routes', () => {
  let routes: RouteDefinition[];
  let openSources: CountingOpenSources;
  let callRecords: KnownCallRecords;

  beforeEach(() => {
    const customers = new FakeCustomersStore();
    openSources = new CountingOpenSources();
    callRecords = new KnownCallRecords();
    routes = customerRoutes(
      new CustomersService(
        customers,
        inlineUnitOfWork({ customers, openSources, callRecords }),
        inlineUnitOfWork({ customers, webhooks: { enqueue: async () => undefined } }),
      ),
    );
  });

  async function call(
    method: HttpMethod,
    path: string,
    input: {
      partner?: AuthenticatedPartner;
      params?: Record<string, string>;
      query?: Record<string, string>;
      body?: Record<string, unknown>;
    } = {},
  ): Promise<RouteAnswer> {
    return callRoute(routes, method, path, {
      ...input,
      partner: input.partner ?? ACME,
      now: new Date('2026-01-01T00:00:00Z'),
    });
  }

  const records = (answer: RouteAnswer): ApiRecord[] => answerRecords(answer, 'customers');

  async function create(body: Record<string, unknown>, partner = ACME): Promise<ApiRecord> {
    const [record] = records(await call('POST', '/customers', { partner, body }));
    return record!;
  }

  it('exposes the five customer operations', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /customers',
      'POST /customers',
      'GET /customers/:customerId',
      'PUT /customers/:customerId',
      'DELETE /customers/:customerId',
    ]);
  });

  it('creates a customer and renders every field as a string or null', async () => {
    const record = await create({ name: 'Ola Nordmann AS', custnr: 'K-1', custom_2: 'gold' });
    expect(record).toEqual({
      customer_id: '1',
      name: 'Ola Nordmann AS',
      custnr: 'K-1',
      corporateid: null,
      email: null,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      dncs_class_name: null,
      receive_monthly_report: '0',
      service_caller_id: '0',
      custom_1: null,
      custom_2: 'gold',
    });
    expect(Object.keys(record).filter((key) => !ACME.customFields.customer.includes(key))).toEqual(
      [...RESERVED_FIELD_NAMES.customer].filter((key) => key !== 'created' && key !== 'modified'),
    );
  });

  it('accepts every seed field on create', async () => {
    const record = await create({
      name: 'Kari',
      custnr: '77',
      corporateid: '987654321',
      email: 'kari@example.no',
      dncs_class_name: 'premium',
      receive_monthly_report: '1',
      service_caller_id: '1',
    });
    expect(record).toMatchObject({
      corporateid: '987654321',
      email: 'kari@example.no',
      dncs_class_name: 'premium',
      receive_monthly_report: '1',
      service_caller_id: '1',
    });
  });

  it.each([
    [{ custnr: '1' }, 'name', 'is required'],
    [{ name: 'x' }, 'custnr', 'is required'],
    [{ name: '  ', custnr: '1' }, 'name', 'must not be empty'],
    [{ name: 'x'.repeat(61), custnr: '1' }, 'name', 'must be at most 60 characters'],
    [{ name: 'x', custnr: '1'.repeat(46) }, 'custnr', 'must be at most 45 characters'],
    [{ name: 'x', custnr: '1', email: 'not-an-address' }, 'email', 'must be a valid e-mail address'],
    [
      { name: 'x', custnr: '1', email: `${'a'.repeat(140)}@example.no` },
      'email',
      'must be at most 150 characters',
    ],
    [
      { name: 'x', custnr: '1', corporateid: 'c'.repeat(256) },
      'corporateid',
      'must be at most 255 characters',
    ],
    [
      { name: 'x', custnr: '1', dncs_class_name: 'd'.repeat(256) },
      'dncs_class_name',
      'must be at most 255 characters',
    ],
    [
      { name: 'x', custnr: '1', receive_monthly_report: 'true' },
      'receive_monthly_report',
      'must be "0" or "1"',
    ],
    [{ name: 'x', custnr: '1', service_caller_id: 1 }, 'service_caller_id', 'must be "0" or "1"'],
    [{ name: 42, custnr: '1' }, 'name', 'must be a string'],
    [{ name: 'x', custnr: '1', customer_id: '5' }, 'customer_id', 'is not a known field'],
    [{ name: 'x', custnr: '1', colour: 'blue' }, 'colour', 'is not a known field'],
    [{ name: 'x', custnr: '1', custom_9: 'source field' }, 'custom_9', 'is not a known field'],
    [{ name: 'x', custnr: '1', custom_1: 7 }, 'custom_1', 'must be a string or null'],
    [{ name: 'x', custnr: '1', custom_1: 'v'.repeat(256) }, 'custom_1', 'must be at most 255 characters'],
  ])('refuses invalid body #%# with a 400', async (body, field, rule) => {
    await expect400(call('POST', '/customers', { body }), field, rule);
    expect(records(await call('GET', '/customers'))).toEqual([]);
  });

  it('counts characters, not UTF-16 units, against the limits', async () => {
    const record = await create({ name: '😀'.repeat(60), custnr: 'emoji' });
    expect(record.name).toBe('😀'.repeat(60));
  });

  it('refuses a custnr the partner already uses, but not one of another partner', async () => {
    await create({ name: 'a', custnr: 'K-1' });
    await expect400(
      call('POST', '/customers', { body: { name: 'b', custnr: 'K-1' } }),
      'custnr',
      /already used/,
    );
    expect((await create({ name: 'b', custnr: 'K-1' }, BETA)).custnr).toBe('K-1');
  });

  it('lists the partner’s own customers, filtered by custnr', async () => {
    await create({ name: 'a', custnr: 'K-1' });
    await create({ name: 'b', custnr: 'K-2' });
    await create({ name: 'other', custnr: 'K-1' }, BETA);
    expect(records(await call('GET', '/customers')).map((record) => record.name)).toEqual(['a', 'b']);
    expect(
      records(await call('GET', '/customers', { query: { custnr: 'K-2' } })).map((record) => record.name),
    ).toEqual(['b']);
    expect(records(await call('GET', '/customers', { query: { custnr: 'none' } }))).toEqual([]);
    await expect400(
      call('GET', '/customers', { query: { custno: 'K-2' } }),
      'custno',
      'is not a known field',
    );
  });

  it('reads one customer by id', async () => {
    const created = await create({ name: 'a', custnr: 'K-1' });
    expect(records(await call('GET', '/customers/:customerId', { params: { customerId: '1' } }))).toEqual([
      created,
    ]);
  });

  // An empty id is no URL of its own: `/customers/` is the list.
  it.each(['999', 'abc', '1.0', '01', '-1', '99999999999999999999'])(
    'answers id %p with 404',
    async (customerId) => {
      await create({ name: 'a', custnr: 'K-1' });
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        refusal(await call(method, '/customers/:customerId', { params: { customerId } }), 404);
      }
    },
  );

  it('answers another partner’s customer with 404 and leaves it alone', async () => {
    const created = await create({ name: 'a', custnr: 'K-1' });
    const params = { customerId: created.customer_id as string };
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      refusal(
        await call(method, '/customers/:customerId', { partner: BETA, params, body: { name: 'x' } }),
        404,
      );
    }
    expect(records(await call('GET', '/customers/:customerId', { params }))).toEqual([created]);
  });

  describe('PUT', () => {
    let created: ApiRecord;
    const params = { customerId: '1' };

    beforeEach(async () => {
      created = await create({
        name: 'a',
        custnr: 'K-1',
        email: 'a@example.no',
        custom_1: 'one',
        custom_2: 'two',
      });
    });

    it('changes the keys sent and keeps the others', async () => {
      const [updated] = records(
        await call('PUT', '/customers/:customerId', {
          params,
          body: { name: 'renamed', receive_monthly_report: '1', custom_2: 'new' },
        }),
      );
      expect(updated).toEqual({ ...created, name: 'renamed', receive_monthly_report: '1', custom_2: 'new' });
      expect(records(await call('GET', '/customers/:customerId', { params }))).toEqual([updated]);
    });

    it('clears optional text with an empty value and custom fields with null', async () => {
      const [updated] = records(
        await call('PUT', '/customers/:customerId', { params, body: { email: '', custom_1: null } }),
      );
      expect(updated).toMatchObject({ email: null, custom_1: null, custom_2: 'two' });
    });

    it('keeps everything for an empty body', async () => {
      expect(records(await call('PUT', '/customers/:customerId', { params, body: {} }))).toEqual([created]);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ name: null }, 'name'],
      [{ custnr: 'x'.repeat(46) }, 'custnr'],
      [{ service_caller_id: 'yes' }, 'service_caller_id'],
      [{ custom_3: 'undefined field' }, 'custom_3'],
      [{ uuid: '00000000-0000-4000-8000-000000000000' }, 'uuid'],
    ])('refuses %p naming %s and changes nothing', async (body, field) => {
      await expect400(call('PUT', '/customers/:customerId', { params, body }), field);
      expect(records(await call('GET', '/customers/:customerId', { params }))).toEqual([created]);
    });

    it('refuses a custnr another customer of the partner has', async () => {
      await create({ name: 'b', custnr: 'K-2' });
      await expect400(call('PUT', '/customers/:customerId', { params, body: { custnr: 'K-2' } }), 'custnr');
      const [same] = records(
        await call('PUT', '/customers/:customerId', { params, body: { custnr: 'K-1' } }),
      );
      expect(same!.custnr).toBe('K-1');
    });
  });

  describe('DELETE', () => {
    it('deletes a customer without open sources and answers with its record', async () => {
      const created = await create({ name: 'a', custnr: 'K-1' });
      expect(
        records(await call('DELETE', '/customers/:customerId', { params: { customerId: '1' } })),
      ).toEqual([created]);
      expect(records(await call('GET', '/customers'))).toEqual([]);
    });

    it('refuses with 403 while the customer has open sources', async () => {
      await create({ name: 'a', custnr: 'K-1' });
      openSources.open.set('1', 2);
      expect(
        refusal(await call('DELETE', '/customers/:customerId', { params: { customerId: '1' } }), 403),
      ).toBe('Customer 1 has 2 open sources; close them first');
      expect(records(await call('GET', '/customers'))).toHaveLength(1);
    });

    // A deleted customer's records could not be listed any more (docs/cdrs.md, "Deleting a customer").
    it('refuses with 403 while the customer has call records or a held-back number', async () => {
      await create({ name: 'a', custnr: 'K-1' });
      const remove = async () =>
        refusal(await call('DELETE', '/customers/:customerId', { params: { customerId: '1' } }), 403);
      openSources.heldBack.set('1', 1);
      expect(await remove()).toBe(
        "Customer 1 has 1 closed source whose number is still held back; calls to it are still the customer's",
      );
      openSources.heldBack.clear();
      callRecords.customers.add('1');
      expect(await remove()).toBe(
        'Customer 1 has call records; they stay listable under the customer, so it cannot be deleted',
      );
      expect(records(await call('GET', '/customers'))).toHaveLength(1);
    });
  });
});
