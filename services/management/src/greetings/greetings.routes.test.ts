import { NotFoundError } from '@trackline/domain';
import { FakeCustomersStore } from '../customers/fake-customers.store';
import {
  answerRecords,
  callRoute,
  refusal,
  routePartner,
  type RouteAnswer,
} from '../test-support/route-calls';
import { inlineUnitOfWork } from '../db/unit-of-work';
import type { ApiRecord } from '../http/api-response';
import type { HttpMethod, RouteDefinition } from '../http/route-definition';
import type { GreetingUsageReader } from './greeting-usage';
import type { GreetingUsage } from './greeting';
import { FakeGreetingsStore } from './fake-greetings.store';
import { greetingRoutes } from './greetings.routes';
import { GreetingsService } from './greetings.service';

const ACME = routePartner('1', 'acme');
const BETA = routePartner('2', 'beta');
const RECORD_NUMBER = '+4722000000';
const NOW = new Date('2026-03-01T12:34:56Z');

class MapUsage implements GreetingUsageReader {
  readonly byGreeting = new Map<string, GreetingUsage>();
  async usage(_partnerId: string, ids: readonly string[]): Promise<Map<string, GreetingUsage>> {
    return new Map(ids.flatMap((id) => (this.byGreeting.has(id) ? [[id, this.byGreeting.get(id)!]] : [])));
  }
}

describe('voicemail greeting routes', () => {
  let routes: RouteDefinition[];
  let service: GreetingsService;
  let usage: MapUsage;
  let pins: string[];
  let customerId: string;
  let betaCustomerId: string;

  beforeEach(async () => {
    const customers = new FakeCustomersStore();
    const greetings = new FakeGreetingsStore(() => NOW);
    usage = new MapUsage();
    pins = ['123456', '123456', '000042', '999999'];
    service = new GreetingsService(
      greetings,
      customers,
      usage,
      inlineUnitOfWork({ greetings, usage }),
      () => {
        const pin = pins.shift();
        if (pin === undefined) throw new Error('test ran out of PINs');
        return pin;
      },
      RECORD_NUMBER,
    );
    routes = greetingRoutes(service);
    const values = {
      corporateid: null,
      email: null,
      dncsClassName: null,
      receiveMonthlyReport: false,
      serviceCallerId: false,
      customFields: {},
    };
    customerId = (await customers.insert(ACME.id, { ...values, name: 'Kari', custnr: 'K1' })).id;
    betaCustomerId = (await customers.insert(BETA.id, { ...values, name: 'Per', custnr: 'P1' })).id;
  });

  async function call(
    method: HttpMethod,
    path: string,
    params: Record<string, string>,
    body: Record<string, unknown> = {},
    partner = ACME,
  ): Promise<RouteAnswer> {
    return callRoute(routes, method, path, { partner, params, body, now: NOW });
  }

  const records = (answer: RouteAnswer): ApiRecord[] => answerRecords(answer, 'voicemail_greetings');

  const LIST = '/customers/:customerId/voicemail_greetings';
  const ONE = '/customers/:customerId/voicemail_greetings/:vmGreetingId';

  async function create(name = 'Welcome'): Promise<ApiRecord> {
    return records(await call('POST', LIST, { customerId }, { name }))[0]!;
  }

  it('exposes list, create, read and delete', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      `GET ${LIST}`,
      `POST ${LIST}`,
      `GET ${ONE}`,
      `DELETE ${ONE}`,
    ]);
  });

  it('creates a placeholder with the dial-in number and a PIN', async () => {
    expect(await create()).toEqual({
      vm_greeting_id: '1',
      name: 'Welcome',
      customer_id: customerId,
      timestamp: '2026-03-01 12:34:56',
      datalength: null,
      locked: '0',
      used_by: [],
      sounddata: '',
      record_number: RECORD_NUMBER,
      record_pin: '123456',
    });
  });

  it('draws again when the PIN is held by another unrecorded greeting', async () => {
    await create('first');
    expect((await create('second')).record_pin).toBe('000042');
  });

  it('gives up with 503 when every draw collides', async () => {
    await create('first');
    pins = Array.from({ length: 10 }, () => '123456');
    refusal(await call('POST', LIST, { customerId }, { name: 'second' }), 503);
  });

  it('frees a PIN once its greeting is recorded', async () => {
    await create('first');
    await service.record('123456', Buffer.from('audio'), NOW);
    pins = ['123456'];
    expect((await create('second')).record_pin).toBe('123456');
  });

  it('returns the recording as base64 when read by id and leaves it out of lists', async () => {
    const { vm_greeting_id: id } = await create();
    const recorded = await service.record('123456', Buffer.from([0, 1, 2, 250]), NOW);
    expect(recorded.datalength).toBe(4);
    const [one] = records(await call('GET', ONE, { customerId, vmGreetingId: id as string }));
    expect(one).toMatchObject({ sounddata: 'AAEC+g==', datalength: '4', record_pin: '123456' });
    const [listed] = records(await call('GET', LIST, { customerId }));
    expect(listed).not.toHaveProperty('sounddata');
    expect(listed).toMatchObject({ vm_greeting_id: id, datalength: '4' });
  });

  it('answers 404 for an unknown PIN and for a PIN already recorded', async () => {
    await expect(service.record('654321', Buffer.from('x'), NOW)).rejects.toBeInstanceOf(NotFoundError);
    await create();
    await service.record('123456', Buffer.from('x'), NOW);
    await expect(service.record('123456', Buffer.from('y'), NOW)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('shows who uses it and refuses to delete it meanwhile', async () => {
    const { vm_greeting_id: id } = await create();
    usage.byGreeting.set(id as string, {
      sources: [{ id: '12', name: 'Finn ad' }],
      campaigns: [{ id: '3', name: 'Spring' }],
    });
    const [one] = records(await call('GET', ONE, { customerId, vmGreetingId: id as string }));
    expect(one).toMatchObject({ locked: '1', used_by: { '12': 'Finn ad' } });
    const refused = await call('DELETE', ONE, { customerId, vmGreetingId: id as string });
    expect(refusal(refused, 403)).toContain('source 12 (Finn ad), campaign 3 (Spring)');
  });

  it('locks a greeting that only a campaign uses, with used_by still listing sources only', async () => {
    const { vm_greeting_id: id } = await create();
    usage.byGreeting.set(id as string, { sources: [], campaigns: [{ id: '3', name: 'Spring' }] });
    const [listed] = records(await call('GET', LIST, { customerId }));
    expect(listed).toMatchObject({ locked: '1', used_by: [] });
  });

  it('deletes an unused greeting and answers with it', async () => {
    const { vm_greeting_id: id } = await create();
    const [deleted] = records(await call('DELETE', ONE, { customerId, vmGreetingId: id as string }));
    expect(deleted).toMatchObject({ vm_greeting_id: id, name: 'Welcome' });
    expect(records(await call('GET', LIST, { customerId }))).toEqual([]);
  });

  it("answers 404 for another partner's customer or greeting and for junk ids", async () => {
    const { vm_greeting_id: id } = await create();
    refusal(await call('GET', LIST, { customerId: betaCustomerId }), 404);
    refusal(await call('GET', LIST, { customerId }, {}, BETA), 404);
    refusal(
      await call('GET', ONE, { customerId: betaCustomerId, vmGreetingId: id as string }, {}, BETA),
      404,
    );
    refusal(await call('DELETE', ONE, { customerId, vmGreetingId: '99' }), 404);
    refusal(await call('GET', ONE, { customerId, vmGreetingId: 'abc' }), 404);
    refusal(await call('GET', LIST, { customerId: '1e3' }), 404);
  });

  it.each([
    [{}, 'name', 'is required'],
    [{ name: ' ' }, 'name', 'must not be empty'],
    [{ name: 'x'.repeat(101) }, 'name', 'must be at most 100 characters'],
    [{ name: 'x', sounddata: 'AAAA' }, 'sounddata', 'is not a known field'],
  ])('refuses %j naming %s', async (body, field, rule) => {
    expect(refusal(await call('POST', LIST, { customerId }, body), 400)).toBe(`${field}: ${rule}`);
  });
});
