import { inlineUnitOfWork } from '../db/unit-of-work';
import type { ApiRecord } from '../http/api-response';
import type { AuthenticatedPartner, HttpMethod, RouteDefinition } from '../http/route-definition';
import { FakeNumbersStore } from '../numbers/fake-numbers.store';
import {
  answerRecords,
  callRoute,
  expect400,
  refusal,
  routePartner,
  type RouteAnswer,
} from '../test-support/route-calls';
import { FakeSourceReferences } from './fake-source-references';
import { FakeSourcesStore } from './fake-sources.store';
import type { SourceChangeListener } from './source-change-listener';
import { sourceRoutes } from './sources.routes';
import { SourcesService } from './sources.service';

const ACME = routePartner('1', 'acme', { customer: ['custom_1'], source: ['custom_5', 'custom_6'] });
const BETA = routePartner('2', 'beta');
const NOW = new Date('2026-03-02T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

class RecordingListener implements SourceChangeListener {
  readonly calls: string[] = [];
  async sourceChanged(partnerId: string, sourceId: string): Promise<void> {
    this.calls.push(`${partnerId}:${sourceId}`);
  }
}

describe('source routes', () => {
  let routes: RouteDefinition[];
  let numbers: FakeNumbersStore;
  let references: FakeSourceReferences;
  let sources: FakeSourcesStore;
  let listener: RecordingListener;
  let keys: number;

  beforeEach(async () => {
    sources = new FakeSourcesStore(() => NOW);
    numbers = new FakeNumbersStore();
    references = new FakeSourceReferences();
    listener = new RecordingListener();
    keys = 0;
    const service = new SourcesService(
      sources,
      inlineUnitOfWork({ sources, numbers, references }),
      [listener],
      () => `key${++keys}`,
    );
    routes = sourceRoutes(service);
    references.customers.set('10', ACME.id);
    references.customers.set('11', ACME.id);
    references.customers.set('20', BETA.id);
    references.campaigns.set('100', { partnerId: ACME.id, customerId: '10' });
    references.campaigns.set('101', { partnerId: ACME.id, customerId: '11' });
    references.greetings.set('300', { partnerId: ACME.id, customerId: '10' });
    references.greetings.set('301', { partnerId: ACME.id, customerId: '11' });
    // Added on different days, so "free the longest" has one answer: +4722000003 first.
    await numbers.add(ACME.id, 'static', ['+4722000003'], new Date(NOW.getTime() - 3 * DAY));
    await numbers.add(ACME.id, 'static', ['+4722000001'], new Date(NOW.getTime() - 2 * DAY));
    await numbers.add(ACME.id, 'static', ['+4722000002'], new Date(NOW.getTime() - DAY));
    await numbers.add(ACME.id, 'pool', ['+4722000009'], new Date(NOW.getTime() - 9 * DAY));
  });

  async function call(
    method: HttpMethod,
    path: string,
    input: {
      partner?: AuthenticatedPartner;
      params?: Record<string, string>;
      query?: Record<string, string>;
      body?: Record<string, unknown>;
      now?: Date;
    } = {},
  ): Promise<RouteAnswer> {
    return callRoute(routes, method, path, {
      ...input,
      partner: input.partner ?? ACME,
      now: input.now ?? NOW,
    });
  }

  const records = (answer: RouteAnswer): ApiRecord[] => answerRecords(answer, 'sources');

  const minimal = { customer_id: '10', name: 'Front page', phonenr: '22 33 44 55' };

  async function create(
    body: Record<string, unknown> = minimal,
    partner = ACME,
    now = NOW,
  ): Promise<ApiRecord> {
    const [record] = records(await call('POST', '/sources', { partner, body, now }));
    return record!;
  }

  const params = (sourceId: string) => ({ params: { sourceId } });

  it('exposes the five source operations', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /sources',
      'POST /sources',
      'GET /sources/:sourceId',
      'PUT /sources/:sourceId',
      'DELETE /sources/:sourceId',
    ]);
  });

  it('creates an active source on the static number free the longest, every field a string or null', async () => {
    const record = await create();
    expect(record).toEqual({
      source_id: '1',
      name: 'Front page',
      customer_id: '10',
      media: null,
      phonenr: '+4722334455',
      destnr: '+4722000003',
      campaign_id: null,
      publisher_id: null,
      email: null,
      smsnumber: null,
      status: 'active',
      class: 'standard',
      timestamp: '2026-03-02 10:00:00',
      expire: null,
      created: '2026-03-02 10:00:00',
      modified: '2026-03-02 10:00:00',
      vm_greeting_id: null,
      notify_on_missed_call: '0',
      notify_on_new_voicemail: '0',
      vm_divert_all: '0',
      vm_divert_busy: '0',
      vm_divert_noanswer: '0',
      alt_numbers: [],
      custom_5: null,
      custom_6: null,
    });
    expect((await create()).destnr).toBe('+4722000001');
    expect(listener.calls).toEqual(['1:1', '1:2']);
  });

  it('accepts every optional field, alt_numbers as JSON text, and echoes rules with alt_key', async () => {
    const record = await create({
      ...minimal,
      phonenr: '+47 22 33 44 55',
      media: 'print',
      campaign_id: '100',
      publisher_id: 'pub-7',
      email: 'calls@example.no',
      smsnumber: '0047 912 34 567',
      vm_greeting_id: '300',
      notify_on_missed_call: '1',
      notify_on_new_voicemail: '1',
      vm_divert_all: '0',
      vm_divert_busy: '1',
      vm_divert_noanswer: '1',
      class: 'premium',
      custom_6: 'blue',
      alt_numbers: JSON.stringify([
        { phonenr: '912 34 568', weekdays: 'mon,tue', from_time: '17:00', to_time: '24:00' },
        {
          phonenr: 'voicemail',
          weekdays: 'sat,sun',
          from_time: '00:00',
          to_time: '24:00',
          alt_key: 'weekend',
        },
      ]),
    });
    expect(record).toMatchObject({
      phonenr: '+4722334455',
      media: 'print',
      campaign_id: '100',
      publisher_id: 'pub-7',
      email: 'calls@example.no',
      smsnumber: '+4791234567',
      vm_greeting_id: '300',
      notify_on_missed_call: '1',
      notify_on_new_voicemail: '1',
      vm_divert_all: '0',
      vm_divert_busy: '1',
      vm_divert_noanswer: '1',
      class: 'premium',
      custom_5: null,
      custom_6: 'blue',
      alt_numbers: [
        {
          phonenr: '+4791234568',
          weekdays: 'mon,tue',
          from_time: '17:00',
          to_time: '24:00',
          alt_key: 'key1',
        },
        {
          phonenr: 'voicemail',
          weekdays: 'sat,sun',
          from_time: '00:00',
          to_time: '24:00',
          alt_key: 'weekend',
        },
      ],
    });
  });

  it('accepts alt_numbers as a JSON array', async () => {
    const record = await create({
      ...minimal,
      alt_numbers: [{ phonenr: '+4791234568', weekdays: 'fri', from_time: '08:00', to_time: '16:00' }],
    });
    expect(record.alt_numbers).toEqual([
      { phonenr: '+4791234568', weekdays: 'fri', from_time: '08:00', to_time: '16:00', alt_key: 'key1' },
    ]);
  });

  const rule = (overrides: Record<string, string>) => [
    { phonenr: '+4791234568', weekdays: 'mon', from_time: '08:00', to_time: '16:00', ...overrides },
  ];

  it.each([
    [{ name: 'x', phonenr: '22334455' }, 'customer_id', 'is required'],
    [{ customer_id: '10', phonenr: '22334455' }, 'name', 'is required'],
    [{ customer_id: '10', name: 'x' }, 'phonenr', 'is required'],
    [{ ...minimal, phonenr: '12' }, 'phonenr', 'must be a phone number'],
    [{ ...minimal, phonenr: 'tel:22334455' }, 'phonenr', 'must be a phone number'],
    [{ ...minimal, smsnumber: 'abc' }, 'smsnumber', 'must be a phone number'],
    [{ ...minimal, name: 'x'.repeat(101) }, 'name', 'must be at most 100 characters'],
    [{ ...minimal, email: 'nope' }, 'email', 'must be a valid e-mail address'],
    [{ ...minimal, vm_divert_all: 'true' }, 'vm_divert_all', 'must be "0" or "1"'],
    [{ ...minimal, notify_on_missed_call: 1 }, 'notify_on_missed_call', 'must be "0" or "1"'],
    [{ ...minimal, destnr: '+4722000002' }, 'destnr', 'is not a known field'],
    [{ ...minimal, custom_1: 'customer field' }, 'custom_1', 'is not a known field'],
    [{ ...minimal, custom_5: 5 }, 'custom_5', 'must be a string or null'],
    [{ ...minimal, campaign_id: '101' }, 'campaign_id', 'must name a campaign of customer 10'],
    [{ ...minimal, campaign_id: '999' }, 'campaign_id', 'must name a campaign of customer 10'],
    [{ ...minimal, campaign_id: 'abc' }, 'campaign_id', 'must name a campaign of customer 10'],
    [
      { ...minimal, vm_greeting_id: '301' },
      'vm_greeting_id',
      'must name a voicemail greeting of customer 10',
    ],
    [{ ...minimal, alt_numbers: 'not json' }, 'alt_numbers', 'must be a JSON array'],
    [{ ...minimal, alt_numbers: rule({ weekdays: 'mon,funday' }) }, 'alt_numbers[0].weekdays', /mon\.\.sun/],
    [
      { ...minimal, alt_numbers: rule({ weekdays: 'mon,mon' }) },
      'alt_numbers[0].weekdays',
      'must not repeat mon',
    ],
    [{ ...minimal, alt_numbers: rule({ to_time: '25:00' }) }, 'alt_numbers[0].to_time', /HH:MM/],
    [{ ...minimal, alt_numbers: rule({ from_time: '24:00' }) }, 'alt_numbers[0].from_time', /HH:MM/],
    [{ ...minimal, alt_numbers: rule({ from_time: '8:00' }) }, 'alt_numbers[0].from_time', /HH:MM/],
    [
      { ...minimal, alt_numbers: rule({ from_time: '16:00' }) },
      'alt_numbers[0].to_time',
      'must be after from_time',
    ],
    [
      { ...minimal, alt_numbers: rule({ phonenr: 'mailbox' }) },
      'alt_numbers[0].phonenr',
      'must be a phone number',
    ],
    [
      {
        ...minimal,
        alt_numbers: [...rule({}), ...rule({ weekdays: 'sun,mon', from_time: '15:00', to_time: '24:00' })],
      },
      'alt_numbers[1]',
      'overlaps alt_numbers[0]',
    ],
  ])('refuses invalid body #%# with a 400 naming the field', async (body, field, rule) => {
    await expect400(call('POST', '/sources', { body }), field, rule);
    expect(await sources.countOpenSources(ACME.id, '10')).toBe(0);
    expect(listener.calls).toEqual([]);
  });

  it('lets back-to-back rules share their boundary and a day split at midnight', async () => {
    const record = await create({
      ...minimal,
      alt_numbers: [
        { phonenr: 'voicemail', weekdays: 'mon', from_time: '17:00', to_time: '24:00' },
        { phonenr: 'voicemail', weekdays: 'tue', from_time: '00:00', to_time: '07:00' },
        { phonenr: '+4791234568', weekdays: 'mon', from_time: '08:00', to_time: '17:00' },
      ],
    });
    expect(record.alt_numbers).toHaveLength(3);
  });

  it('answers another partner’s or an unknown customer with 404', async () => {
    for (const customer_id of ['20', '999', 'abc']) {
      refusal(await call('POST', '/sources', { body: { ...minimal, customer_id } }), 404);
    }
  });

  // No call loops: an answering number that is a tracking number (of this or any partner) is a 400.
  it('refuses a tracking number as phonenr or alt_numbers phonenr, on create and update', async () => {
    await numbers.add(BETA.id, 'pool', ['+4722000077'], NOW);
    const loop = 'must not be a tracking number (calls to it would loop)';
    const altRule = (phonenr: string) =>
      JSON.stringify([{ phonenr, weekdays: 'mon', from_time: '08:00', to_time: '16:00' }]);
    await expect400(call('POST', '/sources', { body: { ...minimal, phonenr: '22000009' } }), 'phonenr', loop);
    await expect400(
      call('POST', '/sources', { body: { ...minimal, phonenr: '+4722000077' } }),
      'phonenr',
      loop,
    );
    await expect400(
      call('POST', '/sources', { body: { ...minimal, alt_numbers: altRule('22 00 00 01') } }),
      'alt_numbers[0].phonenr',
      loop,
    );
    const created = await create();
    const sourceId = created.source_id as string;
    await expect400(
      call('PUT', '/sources/:sourceId', {
        ...params(sourceId),
        body: { alt_numbers: altRule('+4722000077') },
      }),
      'alt_numbers[0].phonenr',
      loop,
    );
    // Nothing was written by the refused requests.
    expect((await sources.findById(ACME.id, sourceId))?.phonenr).toBe('+4722334455');
    expect((await sources.page(ACME.id, { page: 0, pageSize: 10 })).total).toBe(1);
  });

  it('refuses with 403 when no static number is free, and never hands out a pool number', async () => {
    await create();
    await create();
    await create();
    expect(refusal(await call('POST', '/sources', { body: minimal }), 403)).toBe(
      'No tracking number available',
    );
  });

  it('lists pages in id order, filtered by customer', async () => {
    await create();
    await create({ ...minimal, customer_id: '11', name: 'second' });
    await create({ ...minimal, name: 'third' });
    const page = await call('GET', '/sources', { query: { page: '1', pagesize: '2' } });
    expect(page.body).toMatchObject({ total: 3, page: 1, pagesize: 2, numpages: 2 });
    expect((page.body.sources as ApiRecord[]).map((record) => record.name)).toEqual(['third']);
    const all = await call('GET', '/sources');
    expect(all.body).toMatchObject({ total: 3, page: 0, pagesize: 1000 });
    const filtered = await call('GET', '/sources', { query: { customer_id: '11' } });
    expect((filtered.body.sources as ApiRecord[]).map((record) => record.name)).toEqual(['second']);
    expect((await call('GET', '/sources', { partner: BETA })).body).toMatchObject({ total: 0, sources: [] });
  });

  it.each([
    [{ pagesize: '1001' }, 'pagesize'],
    [{ pagesize: '0' }, 'pagesize'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ size: '5' }, 'size'],
  ])('refuses list query %p naming %s', async (query, field) => {
    await expect400(call('GET', '/sources', { query }), field);
  });

  it('reads one source; unknown, malformed and other partners’ ids are 404', async () => {
    const created = await create();
    expect(records(await call('GET', '/sources/:sourceId', params('1')))).toEqual([created]);
    for (const sourceId of ['2', 'x', '01', '99999999999999999999']) {
      refusal(await call('GET', '/sources/:sourceId', params(sourceId)), 404);
    }
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      refusal(await call(method, '/sources/:sourceId', { partner: BETA, ...params('1') }), 404);
    }
  });

  describe('PUT', () => {
    let created: ApiRecord;

    beforeEach(async () => {
      created = await create({
        ...minimal,
        email: 'a@example.no',
        custom_5: 'five',
        alt_numbers: [
          { phonenr: '+4791234568', weekdays: 'mon', from_time: '08:00', to_time: '16:00', alt_key: 'day' },
          { phonenr: 'voicemail', weekdays: 'sun', from_time: '00:00', to_time: '24:00' },
        ],
      });
      listener.calls.length = 0;
    });

    it('changes the keys sent and keeps the others', async () => {
      const [updated] = records(
        await call('PUT', '/sources/:sourceId', {
          ...params('1'),
          body: {
            name: 'renamed',
            vm_divert_all: '1',
            campaign_id: '100',
            vm_greeting_id: '300',
            smsnumber: '91234567',
            custom_6: 'six',
          },
        }),
      );
      expect(updated).toEqual({
        ...created,
        name: 'renamed',
        vm_divert_all: '1',
        campaign_id: '100',
        vm_greeting_id: '300',
        smsnumber: '+4791234567',
        custom_6: 'six',
      });
      expect(records(await call('GET', '/sources/:sourceId', params('1')))).toEqual([updated]);
      expect(listener.calls).toEqual(['1:1']);
    });

    it('replaces alt_numbers as a whole, keeping the keys sent and generating the others', async () => {
      const [updated] = records(
        await call('PUT', '/sources/:sourceId', {
          ...params('1'),
          body: {
            alt_numbers: JSON.stringify([
              { phonenr: '+4791234569', weekdays: 'tue', from_time: '09:00', to_time: '10:00' },
              {
                phonenr: '+4791234568',
                weekdays: 'mon',
                from_time: '08:00',
                to_time: '12:00',
                alt_key: 'day',
              },
            ]),
          },
        }),
      );
      expect(updated!.alt_numbers).toEqual([
        { phonenr: '+4791234569', weekdays: 'tue', from_time: '09:00', to_time: '10:00', alt_key: 'key2' },
        { phonenr: '+4791234568', weekdays: 'mon', from_time: '08:00', to_time: '12:00', alt_key: 'day' },
      ]);
      const [cleared] = records(
        await call('PUT', '/sources/:sourceId', { ...params('1'), body: { alt_numbers: '[]' } }),
      );
      expect(cleared!.alt_numbers).toEqual([]);
    });

    it('clears optional fields with an empty value', async () => {
      await call('PUT', '/sources/:sourceId', { ...params('1'), body: { campaign_id: '100' } });
      const [updated] = records(
        await call('PUT', '/sources/:sourceId', {
          ...params('1'),
          body: { email: '', campaign_id: '', custom_5: null },
        }),
      );
      expect(updated).toMatchObject({ email: null, campaign_id: null, custom_5: null });
    });

    it.each([
      [{ phonenr: '22334455' }, 'phonenr', 'cannot be changed'],
      [{ customer_id: '11' }, 'customer_id', 'cannot be changed'],
      [{ destnr: '+4722000001' }, 'destnr', 'cannot be changed'],
      [{ status: 'closed' }, 'status', 'cannot be changed'],
      [{ created: null }, 'created', 'cannot be changed'],
      [{ name: '' }, 'name', 'must not be empty'],
      [{ vm_divert_busy: 'yes' }, 'vm_divert_busy', 'must be "0" or "1"'],
      [{ vm_greeting_id: '301' }, 'vm_greeting_id', /customer 10/],
      [{ campaign_id: '101' }, 'campaign_id', /customer 10/],
      [{ custom_9: 'x' }, 'custom_9', 'is not a known field'],
      [{ alt_numbers: JSON.stringify(rule({ to_time: '25:00' })) }, 'alt_numbers[0].to_time', /HH:MM/],
      [
        { alt_numbers: [...rule({ alt_key: 'a' }), ...rule({ alt_key: 'a', weekdays: 'tue' })] },
        'alt_numbers[1].alt_key',
        'repeats alt_numbers[0].alt_key',
      ],
    ])('refuses %p naming %s and changes nothing', async (body, field, rule) => {
      await expect400(call('PUT', '/sources/:sourceId', { ...params('1'), body }), field, rule);
      expect(records(await call('GET', '/sources/:sourceId', params('1')))).toEqual([created]);
      expect(listener.calls).toEqual([]);
    });

    it('refuses to change a closed source with 403', async () => {
      await call('DELETE', '/sources/:sourceId', params('1'));
      refusal(await call('PUT', '/sources/:sourceId', { ...params('1'), body: { name: 'x' } }), 403);
    });
  });

  describe('DELETE', () => {
    it('closes the source and holds its number back 30 days before reuse', async () => {
      await create();
      await create();
      const [closed] = records(await call('DELETE', '/sources/:sourceId', params('1')));
      expect(closed).toMatchObject({ source_id: '1', status: 'closed', destnr: '+4722000003' });
      expect(await sources.countOpenSources(ACME.id, '10')).toBe(1);

      // +4722000002 is the last free one; after it, the held number is not handed out.
      expect((await create()).destnr).toBe('+4722000002');
      const early = new Date(NOW.getTime() + 30 * DAY - 1000);
      refusal(await call('POST', '/sources', { body: minimal, now: early }), 403);
      expect((await create(minimal, ACME, new Date(NOW.getTime() + 30 * DAY))).destnr).toBe('+4722000003');
    });

    it('closing twice changes nothing and tells the listener once', async () => {
      await create();
      listener.calls.length = 0;
      const [first] = records(await call('DELETE', '/sources/:sourceId', params('1')));
      const later = new Date(NOW.getTime() + DAY);
      const [second] = records(await call('DELETE', '/sources/:sourceId', { ...params('1'), now: later }));
      expect(second).toEqual(first);
      expect(listener.calls).toEqual(['1:1']);
    });
  });
});
