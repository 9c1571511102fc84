import {
  E2E_TIMEOUT_MS,
  startE2eEnvironment,
  type E2eEnvironment,
  type JsonAnswer,
} from '../test-support/e2e-environment';

const PARTNER = {
  advId: 'dni-acme',
  username: 'dni-acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL_NUMBERS = ['+4791100001', '+4791100002', '+4791100003', '+4791100004'];
const AT = Date.parse('2026-03-02T08:00:00Z');
const FULL_URL = 'https://www.example.no/ad/991?utm_source=mail';
const FULL_REFERRER = 'https://mail.example/';
const PARAMETERS = { custnr: 'DNI-1', custname: 'Dni Bil AS', custemail: 'dni@example.no', adId: '991' };

type Body = Record<string, unknown>;

// A call to a pool number, across both real services, reaches the customer the visitor's session
// named; what either service accepts, the other stores (docs/cdrs.md).
describe('DNI call records end to end', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    env.replacement.clock.now = AT;
  });

  afterAll(async () => {
    await env?.close();
  });

  /** A signed replacement request, as the partner's server sends it (statuses as HTTP statuses). */
  async function requestNumbers(fields: Body): Promise<JsonAnswer> {
    return env.visit({
      fullUrl: FULL_URL,
      trackingId: 'visitor-9',
      fullReferrer: FULL_REFERRER,
      parameters: PARAMETERS,
      ...fields,
    });
  }

  function poolNumberOf(answer: JsonAnswer): string {
    return (answer.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
  }

  function call(callId: string, bnum: string, fields: Body = {}): Body {
    return {
      call_id: callId,
      anum: '+4798000001',
      bnum,
      start: '2026-03-02 08:05:00',
      duration: 75,
      answered: 1,
      ...fields,
    };
  }

  async function routeAndIngest(record: Body): Promise<JsonAnswer> {
    const routed = await env.route({
      call_id: record.call_id,
      anum: record.anum,
      bnum: record.bnum,
      at: record.start,
    });
    expect(routed.status).toBe(200);
    return env.ingest(record);
  }

  it('lists a pool-number call under the session’s custnr with its session fields', async () => {
    const dni = await requestNumbers({});
    expect(dni.status).toBe(200);
    const poolNumber = poolNumberOf(dni);
    const sessionId = dni.body.sessionId as string;

    // Routed and recorded at once: whether the customer-seen stream or ingestion creates the
    // customer first, there is one.
    const routed = await env.route({ call_id: 'dni-1', anum: '+4798000001', bnum: poolNumber });
    expect(routed).toMatchObject({
      status: 200,
      body: { action: 'dial', target: '+4722334455', partner: PARTNER.advId, session_id: sessionId },
    });
    const ingested = await env.ingest(call('dni-1', poolNumber));
    expect(ingested.status).toBe(201);

    const listed = await env.api.read('/statistics/cdrs?custnr=DNI-1&extended=1');
    expect(listed.status).toBe(200);
    const customers = await env.api.read('/customers?custnr=DNI-1');
    expect(customers.body.customers).toEqual([expect.objectContaining({ custnr: 'DNI-1' })]);
    const customerId = (customers.body.customers as Body[])[0]!.customer_id;
    expect(listed.body).toMatchObject({ total: 1 });
    expect(listed.body.cdrs).toEqual([
      expect.objectContaining({
        customer_id: customerId,
        custnr: 'DNI-1',
        source_id: null,
        bnum: poolNumber,
        answered: '1',
        session_id: sessionId,
        tracking_id: 'visitor-9',
        full_url: FULL_URL,
        full_referrer: FULL_REFERRER,
        parameters: PARAMETERS,
      }),
    ]);
  });

  it('refuses text no store can hold where it enters, and stores the calls around it', async () => {
    const refused: Array<[Body, string]> = [
      [{ fullUrl: 'https://www.example.no/\u0000' }, 'fullUrl'],
      [{ fullReferrer: 'https://mail.example/\ud83d' }, 'fullReferrer'],
      [{ trackingId: 'visitor\u0000' }, 'trackingId'],
      [{ parameters: { ...PARAMETERS, adId: '99\udc00' } }, 'parameters.adId'],
    ];
    for (const [fields, name] of refused) {
      expect(await requestNumbers(fields)).toEqual({
        status: 400,
        body: {
          success: false,
          error: `Invalid parameter: ${name} (must not contain NUL characters or unpaired UTF-16 surrogates)`,
        },
      });
    }
    expect(await requestNumbers({ trackingId: 'v'.repeat(101) })).toEqual({
      status: 400,
      body: { success: false, error: 'Invalid parameter: trackingId (max 100 characters)' },
    });

    // The longest trackingId and text in every script are stored whole, and so is the batch around it.
    const longest = await requestNumbers({
      trackingId: '🚗'.repeat(100),
      parameters: { ...PARAMETERS, adId: 'Ærlig – 車 🚗' },
      sessionId: '',
    });
    expect(longest.status).toBe(200);
    const bnum = poolNumberOf(longest);
    const batch = [call('edge-ok-1', bnum), call('edge-long', bnum), call('edge-ok-2', bnum)];
    for (const record of batch) {
      const routed = await env.route({ call_id: record.call_id, anum: record.anum, bnum });
      expect(routed.status).toBe(200);
    }
    const answer = await env.ingest(batch);
    expect(answer.status).toBe(200);
    expect((answer.body.cdrs as Body[])[1]).toMatchObject({
      call_id: 'edge-long',
      tracking_id: '🚗'.repeat(100),
      parameters: expect.objectContaining({ adId: 'Ærlig – 車 🚗' }),
    });
  });

  it('holds call_id and anum to one rule on both services, withheld callers included', async () => {
    const bnum = POOL_NUMBERS[0]!;
    const rule = 'call_id: must be 1 to 128 printable ASCII characters without spaces';
    for (const callId of ['a b', 'c'.repeat(200), 'samtale-æ']) {
      expect(await env.route({ call_id: callId, anum: '+4798000001', bnum })).toEqual({
        status: 400,
        body: { error: { status: 400, message: rule } },
      });
      expect(await env.ingest(call(callId, bnum))).toEqual({
        status: 400,
        body: { error: { status: 400, message: rule } },
      });
    }
    // A batch around a refused record is stored.
    const around = await env.ingest([call('around-1', bnum), call('a b', bnum), call('around-2', bnum)]);
    expect(around.status).toBe(207);
    expect((around.body.cdrs as Body[]).map((cdr) => cdr.call_id)).toEqual(['around-1', 'around-2']);
    expect(around.body.errors).toEqual([{ index: '1', call_id: 'a b', status: '400', message: rule }]);

    // A withheld caller: routed, and stored as the one withheld form.
    const withheld = await routeAndIngest(call('withheld-1', bnum, { anum: '' }));
    expect(withheld.status).toBe(201);
    expect((withheld.body.cdrs as Body[])[0]).toMatchObject({ anum: 'anonymous' });
    const longestId = 'L'.repeat(128);
    expect((await routeAndIngest(call(longestId, bnum, { anum: 'anonymous' }))).status).toBe(201);
  });

  it('refuses values no record could hold and numbers that would loop, and keeps the customer its records', async () => {
    // A price larger than a record's commission column.
    const price = await env.api.write('POST', '/pricing_models', {
      name: 'Too dear',
      type: '0',
      unique_caller_time: '0',
      conditions:
        '[{"cost_per_lead":"99999999999.99","min_duration":"0","from_time":"00:00","to_time":"24:00","weekdays":"mon"}]',
    });
    expect(price.status).toBe(400);
    expect(price.body).toEqual({
      error: { status: 400, message: 'conditions[0].cost_per_lead: must be at most 9999999999.99' },
    });

    // A tracking number as the page's number, or as a source's answering number.
    expect(await requestNumbers({ numbers: '22 33 44 55, 911 00 002' })).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'Invalid parameter: numbers ("911 00 002" is a tracking number; calls to it would loop)',
      },
    });
    const customers = await env.api.read('/customers?custnr=DNI-1');
    const customerId = (customers.body.customers as Body[])[0]!.customer_id as string;
    const source = await env.api.write('POST', '/sources', {
      customer_id: customerId,
      name: 'Loop',
      phonenr: POOL_NUMBERS[1]!,
    });
    expect(source.status).toBe(400);
    expect(source.body).toEqual({
      error: { status: 400, message: 'phonenr: must not be a tracking number (calls to it would loop)' },
    });

    // The customer the DNI call went to has records: it stays, and so do they.
    const before = (await env.api.read('/statistics/cdrs?custnr=DNI-1')).body.total;
    expect(Number(before)).toBeGreaterThan(0);
    const removed = await env.api.remove(`/customers/${customerId}`);
    expect(removed.status).toBe(403);
    expect(removed.body).toEqual({
      error: {
        status: 403,
        message: `Customer ${customerId} has call records; they stay listable under the customer, so it cannot be deleted`,
      },
    });
    expect((await env.api.read('/statistics/cdrs?custnr=DNI-1')).body.total).toBe(before);
  });
});
