import {
  CUSTOMER_EVENTS_GROUP,
  CUSTOMER_SEEN_RESEND_MS,
  decodeCustomerSeenEvent,
  partnerKeys,
  writePartnerProjection,
  type PartnerConfig,
} from '@trackline/contracts';
import { partnerConfig, poolNumbers, projection, uniqueAdvId } from '../test-support/fixtures';
import {
  partnerSign,
  sendReplacementRequest,
  webRequest,
  type PartnerCall,
  type SendOptions,
} from '../test-support/partner-client';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

// A scripted partner meeting every error path, in legacy mode (always 200) and with X-HTTP-STATUSES.
describe('POST /dynamic-numbers as a partner sees it', () => {
  let target: RedisTarget;
  let app: TestServer;
  let partner: PartnerConfig;

  beforeAll(async () => {
    target = await singleRedisTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
    partner = partnerConfig(uniqueAdvId('http'));
    await writePartnerProjection(target.redis, target.keyPrefix, projection(partner, poolNumbers(20)));
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
  });

  const send = (body: string | Record<string, unknown>, options: Partial<SendOptions> = {}) =>
    sendReplacementRequest(app.baseUrl, body, { secret: partner.signingSecret, ...options });

  it.each([
    ['query', '/dynamic-numbers'],
    ['header', '/dynamic-numbers'],
    ['query', '/'],
  ] as const)('accepts the signature in the %s at %s', async (signIn, path) => {
    const call = await send(webRequest(partner.advId, '22334455'), { signIn, path });
    expect(call.status).toBe(200);
    expect(call.body.success).toBe(true);
    expect(call.headers.get('server-timing')).toMatch(/^app;dur=\d+(\.\d+)?$/);
    expect(call.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('serves the paths Express matched: any case, one trailing slash, `//` as `/`', async () => {
    for (const path of ['/DYNAMIC-Numbers', '/dynamic-numbers/', '//']) {
      const call = await send(webRequest(partner.advId, '22334455'), { path });
      expect([path, call.status, call.body.success]).toEqual([path, 200, true]);
    }
    const other = await send(webRequest(partner.advId, '22334455'), { path: '/dynamic-numbers.json' });
    expect([other.status, other.body]).toEqual([404, { success: false, error: 'Not found' }]);
  });

  it('echoes a well-formed X-Request-Id and otherwise makes a fresh one per request', async () => {
    const body = JSON.stringify(webRequest(partner.advId, '22334455'));
    const post = (requestId?: string) =>
      fetch(`${app.baseUrl}/dynamic-numbers?sign=${partnerSign(partner.signingSecret, body)}`, {
        method: 'POST',
        headers: requestId === undefined ? {} : { 'X-Request-Id': requestId },
        body,
      });
    expect((await post('edge-42')).headers.get('x-request-id')).toBe('edge-42');
    const made = [
      (await post()).headers.get('x-request-id'),
      (await post('bad id')).headers.get('x-request-id'),
    ];
    expect(made[0]).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(made[1]).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(made[0]).not.toBe(made[1]);
  });

  it('takes ?sign= before X-SIGN, and a repeated sign parameter is no signature', async () => {
    const body = JSON.stringify(webRequest(partner.advId, '22334455'));
    const good = partnerSign(partner.signingSecret, body);
    const post = (query: string, header?: string) =>
      fetch(`${app.baseUrl}/dynamic-numbers${query}`, {
        method: 'POST',
        headers: header === undefined ? {} : { 'X-SIGN': header },
        body,
      }).then(async (r) => (await r.json()) as Record<string, unknown>);
    expect((await post(`?sign=${good}`, 'wrong')).success).toBe(true);
    expect((await post('?sign=wrong', good)).error).toBe('Invalid signature');
    expect((await post(`?sign=${good}&sign=${good}`, good)).success).toBe(true);
    expect((await post(`?sign=${good}&sign=${good}`)).error).toBe('Invalid signature');
    expect((await post(`?sign=${good.toUpperCase()}`)).success).toBe(true);
  });

  type Case = [
    name: string,
    call: (httpStatuses: boolean) => Promise<PartnerCall>,
    status: number,
    error: string,
  ];
  const request = (overrides: Record<string, unknown>, numbers = '22334455') =>
    webRequest(partner.advId, numbers, overrides);
  const cases: Case[] = [
    ['a body that is not JSON', (h) => send('advId=acme', { httpStatuses: h }), 400, 'Invalid JSON: the body must be a JSON object'],
    ['no advId', (h) => send({ numbers: '22334455' }, { httpStatuses: h }), 400, 'Missing parameter: advId'],
    ['a missing field', (h) => send(request({ fullUrl: undefined }), { httpStatuses: h }), 400, 'Missing parameter: fullUrl'],
    ['a missing web field', (h) => send(request({ requestIpAddress: undefined }), { httpStatuses: h }), 400, 'Missing parameter: requestIpAddress'],
    ['a non-string value', (h) => send(request({ trackingId: 42 }), { httpStatuses: h }), 400, 'Invalid parameter: trackingId (must be a string)'],
    ['a 60-character custnr', (h) => send(request({ parameters: { custnr: 'x'.repeat(60) } }), { httpStatuses: h }), 400, 'Invalid parameter: parameters.custnr (max 45 characters)'],
    ['a bad type', (h) => send(request({ type: 'desktop' }), { httpStatuses: h }), 400, 'Invalid parameter: type (must be web or app)'],
    ['a number that is not one', (h) => send(request({}, '22334455, ring oss'), { httpStatuses: h }), 400, 'Invalid parameter: numbers (not a phone number in NO: "ring oss")'],
    ['no signature', (h) => send(request({}), { httpStatuses: h, signIn: 'none' }), 403, 'Invalid signature'],
    ['a wrong signature', (h) => send(request({}), { httpStatuses: h, signature: partnerSign('other', 'x') }), 403, 'Invalid signature'],
    ['an unknown advId', (h) => send(webRequest('no-such-partner', '22334455'), { httpStatuses: h }), 403, 'Invalid signature'],
    ['an advId that cannot be a partner', (h) => send(webRequest('a{b}', '22334455'), { httpStatuses: h }), 403, 'Invalid signature'],
    ['a body over 64 KiB', (h) => send(request({ fullUrl: 'x'.repeat(65 * 1024) }), { httpStatuses: h }), 413, 'Request body too large (max 65536 bytes)'],
  ]; // prettier-ignore

  it.each(cases)('answers %s with the right text in both modes', async (_name, call, status, error) => {
    const legacy = await call(false);
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual({ success: false, error });
    const withStatuses = await call(true);
    expect(withStatuses.status).toBe(status);
    expect(withStatuses.body).toEqual({ success: false, error });
    expect(withStatuses.headers.get('server-timing')).toMatch(/^app;dur=/);
  });

  // No call loops: a tracking number of any partner is never an answering number (docs/numbers-and-sources.md).
  it('refuses a tracking number of any partner as a number on the page', async () => {
    const other = partnerConfig(uniqueAdvId('other'));
    await writePartnerProjection(target.redis, target.keyPrefix, projection(other, poolNumbers(1, 901)));
    for (const [numbers, shown] of [
      ['22334455, 91000003', '91000003'],
      ['+47 910 00 901', '+47 910 00 901'],
    ]) {
      const call = await send(webRequest(partner.advId, numbers!), { httpStatuses: true });
      expect([call.status, call.body]).toEqual([
        400,
        {
          success: false,
          error: `Invalid parameter: numbers (${JSON.stringify(shown)} is a tracking number; calls to it would loop)`,
        },
      ]);
    }
    expect((await send(webRequest(partner.advId, '22334455'), { httpStatuses: true })).status).toBe(200);
  });

  it('refuses a static number no source holds, in any spelling, as a number on the page', async () => {
    const other = partnerConfig(uniqueAdvId('other'));
    await writePartnerProjection(target.redis, target.keyPrefix, {
      ...projection(other, []),
      freeStaticNumbers: ['+4721000904'],
    });
    const call = await send(webRequest(partner.advId, '21 00 09 04'), { httpStatuses: true });
    expect([call.status, call.body]).toEqual([
      400,
      {
        success: false,
        error: 'Invalid parameter: numbers ("21 00 09 04" is a tracking number; calls to it would loop)',
      },
    ]);
  });

  it('answers unknown paths and methods', async () => {
    const missing = await fetch(`${app.baseUrl}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('server-timing')).toMatch(/^app;dur=/);
    const wrongMethod = await fetch(`${app.baseUrl}/dynamic-numbers`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('reports health and readiness', async () => {
    const health = await fetch(`${app.baseUrl}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${app.baseUrl}/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', redis: 'up' }]);
  });

  it('appends a customer-seen event only when the partner has not sent these values for the custnr', async () => {
    const keys = partnerKeys(target.keyPrefix, partner.advId);
    const ola = { custnr: 'C-9', custname: 'Ola', custemail: 'ola@example.no' };
    const first = await send(webRequest(partner.advId, '22334455', { parameters: ola }));
    const sessionId = first.body.sessionId;
    const t0 = app.clock.now;
    // The same customer in the same session and in new sessions: nothing more to send.
    await send(webRequest(partner.advId, '22334455', { parameters: ola, sessionId }));
    await send(webRequest(partner.advId, '22334455', { parameters: ola }));
    await send(webRequest(partner.advId, '23456789', { parameters: { ...ola, adId: '7' } }));
    app.clock.now += 1000;
    // A changed name is sent at once, whichever session shows it.
    await send(webRequest(partner.advId, '22334455', { parameters: { custnr: 'C-9', custname: 'Ola N' } }));
    await send(
      webRequest(partner.advId, '22334455', { parameters: { custnr: 'C-9', custname: 'Ola N' }, sessionId }),
    );
    await send(webRequest(partner.advId, '22334455', { parameters: { adId: '1' } }));
    // Management forgot the custnr (its customer was deleted): the next request sends it again.
    await target.redis.hdel(keys.customersSent, 'C-9');
    app.clock.now += 1000;
    await send(webRequest(partner.advId, '22334455', { parameters: { custnr: 'C-9', custname: 'Ola N' } }));
    // Once per resend period a customer still seen is sent again.
    app.clock.now += CUSTOMER_SEEN_RESEND_MS;
    await send(webRequest(partner.advId, '22334455', { parameters: { custnr: 'C-9', custname: 'Ola N' } }));
    await send(webRequest(partner.advId, '22334455', { parameters: { custnr: 'C-9', custname: 'Ola N' } }));

    const entries = (await target.redis.xrange(keys.customerEvents, '-', '+')).map(([, fields]) =>
      decodeCustomerSeenEvent(fields),
    );
    const forC9 = entries.filter((e) => e.custnr === 'C-9');
    const renamed = { advId: partner.advId, custnr: 'C-9', custname: 'Ola N' };
    expect(forC9).toEqual([
      { advId: partner.advId, ...ola, at: t0 },
      { ...renamed, at: t0 + 1000 },
      { ...renamed, at: t0 + 2000 },
      { ...renamed, at: t0 + 2000 + CUSTOMER_SEEN_RESEND_MS },
    ]);

    // Management's consumer group reads the stream from its start.
    await target.redis.xgroup('CREATE', keys.customerEvents, CUSTOMER_EVENTS_GROUP, '0', 'MKSTREAM');
    const read = (await target.redis.xreadgroup(
      'GROUP',
      CUSTOMER_EVENTS_GROUP,
      'c1',
      'COUNT',
      100,
      'STREAMS',
      keys.customerEvents,
      '>',
    )) as Array<[string, Array<[string, string[]]>]>;
    expect(read[0]![1].length).toBe(entries.length);
  });
});
