import { Ga4Simulator } from './ga4-simulator';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const stream = { measurementId: 'G-TEST123', apiSecret: 'secret-1' };

describe('the GA4 Measurement Protocol simulator', () => {
  const ga4 = new Ga4Simulator([stream], () => NOW);
  beforeAll(() => ga4.start());
  afterAll(() => ga4.stop());

  const post = (path: string, query: string, body: unknown) =>
    fetch(`${ga4.baseUrl}${path}?${query}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const valid = {
    client_id: '123456.7654321',
    timestamp_micros: (NOW - 60_000) * 1000,
    events: [{ name: 'phone_call', params: { session_id: '1700000000', value: 12.5, currency: 'NOK' } }],
  };

  it('collects a valid event for a known stream and answers 204 with no body', async () => {
    const response = await post('/mp/collect', 'measurement_id=G-TEST123&api_secret=secret-1', valid);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(ga4.eventsNamed('phone_call', '123456.7654321')).toEqual([
      {
        measurementId: 'G-TEST123',
        clientId: '123456.7654321',
        timestampMicros: (NOW - 60_000) * 1000,
        name: 'phone_call',
        params: { session_id: '1700000000', value: 12.5, currency: 'NOK' },
      },
    ]);
  });

  it.each([
    ['an invalid payload', 'measurement_id=G-TEST123&api_secret=secret-1', { events: [{ name: '_bad' }] }],
    ['a wrong secret', 'measurement_id=G-TEST123&api_secret=wrong', valid],
    ['an unknown stream', 'measurement_id=G-OTHER&api_secret=secret-1', valid],
    ['a body that is not JSON', 'measurement_id=G-TEST123&api_secret=secret-1', 'not json'],
  ])('answers 204 to %s and drops it', async (_case, query, body) => {
    const before = ga4.collected.length;
    const response = await post('/mp/collect', query, body);
    expect(response.status).toBe(204);
    expect(ga4.collected.length).toBe(before);
    expect(ga4.hits.at(-1)?.collected).toBe(false);
  });

  it('reports validation on /debug/mp/collect and collects nothing', async () => {
    const before = ga4.collected.length;
    const bad = {
      timestamp_micros: (NOW - 73 * 3600_000) * 1000,
      events: [
        { name: '_badEventName', params: {} },
        { name: 'session_start' },
        { name: 'ok_event', params: { ga_thing: 'x', long: 'y'.repeat(101) } },
      ],
    };
    const response = await post('/debug/mp/collect', 'measurement_id=G-TEST123&api_secret=secret-1', bad);
    expect(response.status).toBe(200);
    const { validationMessages } = (await response.json()) as {
      validationMessages: { validationCode: string; fieldPath: string }[];
    };
    expect(validationMessages.map((m) => [m.fieldPath, m.validationCode])).toEqual([
      ['client_id', 'VALUE_REQUIRED'],
      ['timestamp_micros', 'VALUE_OUT_OF_BOUNDS'],
      ['events', 'NAME_INVALID'],
      ['events', 'NAME_RESERVED'],
      ['events[2].params.ga_thing', 'NAME_RESERVED'],
      ['events[2].params.long', 'VALUE_OUT_OF_BOUNDS'],
    ]);
    const ok = await post('/debug/mp/collect', 'measurement_id=G-TEST123&api_secret=secret-1', valid);
    expect(await ok.json()).toEqual({ validationMessages: [] });
    expect(ga4.collected.length).toBe(before);
  });

  it('refuses a timestamp in the future and more than 25 events', async () => {
    const response = await post('/debug/mp/collect', '', {
      client_id: 'c',
      timestamp_micros: (NOW + 1000) * 1000,
      events: Array.from({ length: 26 }, () => ({ name: 'e' })),
    });
    const { validationMessages } = (await response.json()) as {
      validationMessages: { validationCode: string }[];
    };
    expect(validationMessages.map((m) => m.validationCode)).toEqual([
      'VALUE_INVALID',
      'EXCEEDED_MAX_ENTITIES',
    ]);
  });
});
