import { TwilioNumbersSimulator } from '@trackline/test-harness';
import { PartnerApi } from '../test-support/partner-api';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

// /v1/carrier_account and /v1/carrier_numbers as a partner uses them, against the Twilio simulator:
// the token is never answered, every refusal names its field or the carrier's code, and a refusal
// (ours or the carrier's) changes neither the inventory nor the carrier's account.
describe('/v1/carrier_account and /v1/carrier_numbers', () => {
  let stores: TestStores;
  let service: RunningService;
  let acme: PartnerApi;
  const twilio = new TwilioNumbersSimulator();

  beforeAll(async () => {
    await twilio.start();
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'password-acme', ['127.0.0.1']);
    service = await startTestService(
      testConfig(stores, {
        REPLACEMENT_PUBLIC_URL: 'https://calls.example.com',
        CARRIER_RETRY_DELAY_MS: '5',
      }),
    );
    acme = new PartnerApi(service.port, 'acme-api', 'password-acme');
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
    await twilio.stop();
  });

  async function inventory(): Promise<string[]> {
    const rows = (await stores.dataSource.query(`SELECT e164 FROM tracking_numbers ORDER BY e164`)) as Array<{
      e164: string;
    }>;
    return rows.map((row) => row.e164);
  }

  const account = (token = twilio.authToken) => ({
    account_sid: twilio.accountSid,
    auth_token: token,
    base_url: twilio.baseUrl,
  });

  it('answers 409 for the numbers while no carrier account is set up, and 404 for the account', async () => {
    expect((await acme.read('/carrier_account')).status).toBe(404);
    for (const answer of [
      await acme.read('/carrier_numbers/available?country=US'),
      await acme.write('POST', '/carrier_numbers', { count: '1' }),
      await acme.remove('/carrier_numbers/%2B15105550000'),
    ]) {
      expect(answer.body).toEqual({
        error: {
          status: 409,
          message:
            'No carrier account is set up; set one with PUT /v1/carrier_account or carrier:set (account_sid, auth_token)',
        },
      });
    }
  });

  it.each([
    [
      { account_sid: 'ac0123' },
      'account_sid: must match ^AC[0-9a-f]{32}$ (a Twilio account SID) or be a SignalWire project id (a lowercase UUID)',
    ],
    [{ account_sid: `AC${'0'.repeat(32)}` }, 'auth_token: is required (no carrier account is set up yet)'],
    [
      {
        ...{ account_sid: `AC${'0'.repeat(32)}`, auth_token: 'secret' },
        base_url: 'https://user:pw@api.twilio.com',
      },
      'base_url: must be an http:// or https:// URL of at most 500 characters, without user, query or fragment (https://api.twilio.com)',
    ],
    [
      { account_sid: `AC${'0'.repeat(32)}`, auth_token: 'has space' },
      'auth_token: must be 1 to 200 printable ASCII characters without spaces',
    ],
    [{ region: 'us1' }, 'region: is not a known field'],
  ])('PUT refuses %p with 400 naming the field', async (body, message) => {
    expect((await acme.write('PUT', '/carrier_account', body)).body).toEqual({
      error: { status: 400, message },
    });
  });

  it('sets the account; PUT and GET answer it in JSON and XML without the token, and a PUT without one keeps it', async () => {
    const put = await acme.write('PUT', '/carrier_account', account());
    expect(put.body).toEqual({
      carrier_accounts: [
        {
          account_sid: twilio.accountSid,
          base_url: twilio.baseUrl,
          auth_token_set: '1',
          modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        },
      ],
    });
    const xml = await acme.read('/carrier_account', 'xml');
    expect(xml.body).toMatchObject({ carrier_accounts: { carrier_account: { auth_token_set: '1' } } });
    for (const answer of [put, xml]) expect(answer.text).not.toContain(twilio.authToken);
    // A PUT without the token keeps it.
    const moved = await acme.write('PUT', '/carrier_account', { base_url: `${twilio.baseUrl}/` });
    expect(moved.status).toBe(200);
    const [row] = (await stores.dataSource.query(`SELECT secrets FROM carrier_accounts`)) as Array<{
      secrets: unknown;
    }>;
    expect(row!.secrets).toEqual({ authToken: twilio.authToken });
  });

  it('refuses bad search and buy input with 400 naming the parameter', async () => {
    for (const [answer, message] of [
      [await acme.read('/carrier_numbers/available?limit=31'), 'limit: must be a whole number from 1 to 30'],
      [
        await acme.read('/carrier_numbers/available?area_code=51a'),
        'area_code: must be 1 to 6 digits (a US or Canadian area code is 3)',
      ],
      [await acme.read('/carrier_numbers/available?near=oslo'), 'near: is not a known query parameter'],
      [
        await acme.write('POST', '/carrier_numbers', { count: '21' }),
        'count: must be a whole number from 1 to 20',
      ],
      [
        await acme.write('POST', '/carrier_numbers', { kind: 'dynamic' }),
        'kind: must be one of pool, static',
      ],
      [
        await acme.write('POST', '/carrier_numbers', { contains: '**' }),
        'contains: must be 2 to 16 digits and * (any one digit), with at least one digit',
      ],
      [
        await acme.write('POST', '/carrier_numbers', { country: 'XX' }),
        'country: must be a supported ISO 3166-1 alpha-2 country code in capitals (US)',
      ],
    ] as const) {
      expect(answer.body).toEqual({ error: { status: 400, message } });
    }
    expect(twilio.requests).toEqual([]);
  });

  it("answers the carrier's 20003 as 502 without the token, and changes nothing", async () => {
    await acme.write('PUT', '/carrier_account', { auth_token: 'not-the-token' });
    twilio.stock({ country: 'US', areaCode: '510', count: 2 });
    const answer = await acme.write('POST', '/carrier_numbers', { country: 'US', area_code: '510' });
    expect(answer.body).toEqual({
      error: {
        status: 502,
        message:
          'carrier answered HTTP 401, code 20003: Authenticate (check the carrier account: account_sid and auth_token)',
      },
    });
    expect(answer.text).not.toContain('not-the-token');
    expect(await inventory()).toEqual([]);
    expect(twilio.ownedNumbers()).toEqual([]);
    await acme.write('PUT', '/carrier_account', account());
  });

  it('searches, buys a static number, and refuses to release it while a source uses it or holds it back', async () => {
    const found = await acme.read('/carrier_numbers/available?country=US&area_code=510&limit=1');
    expect(found.body).toEqual({
      available_numbers: [
        {
          number: '+15105550000',
          friendly_name: '(510) 555-0000',
          locality: 'Springfield',
          region: 'IL',
          country: 'US',
        },
      ],
    });
    const bought = await acme.write('POST', '/carrier_numbers', {
      kind: 'static',
      country: 'US',
      area_code: '510',
    });
    expect(bought).toMatchObject({
      status: 201,
      body: { carrier_numbers: [{ number: '+15105550000', kind: 'static' }] },
    });
    expect(twilio.purchases()[0]!.form).toMatchObject({
      VoiceUrl: 'https://calls.example.com/telephony/twilio/voice',
      StatusCallback: expect.stringMatching(/\/telephony\/twilio\/call-status$/),
    });

    const customer = await acme.write('POST', '/customers', { name: 'Carrier AS', custnr: 'C-1' });
    const customerId = (customer.body.customers as Array<{ customer_id: string }>)[0]!.customer_id;
    const source = await acme.write('POST', '/sources', {
      customer_id: customerId,
      name: 'Ad',
      phonenr: '23 45 67 09',
    });
    const { source_id: sourceId, destnr } = (
      source.body.sources as Array<{ source_id: string; destnr: string }>
    )[0]!;
    expect(destnr).toBe('+15105550000');

    const inUse = await acme.remove('/carrier_numbers/%2B15105550000');
    expect(inUse.body).toEqual({
      error: {
        status: 400,
        message: `number: +15105550000 is the destnr of open source ${sourceId}; close the source first and release it after its hold-back; nothing released`,
      },
    });
    expect((await acme.remove(`/sources/${sourceId}`)).status).toBe(200);
    const heldBack = await acme.remove('/carrier_numbers/%2B15105550000');
    expect(heldBack.status).toBe(400);
    expect(heldBack.body).toEqual({
      error: {
        status: 400,
        message: expect.stringMatching(
          /^number: \+15105550000 is held back until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC after its source closed \(calls still reach the source\); nothing released$/,
        ),
      },
    });
    expect(await inventory()).toEqual(['+15105550000']);
    expect(twilio.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(twilio.ownedNumbers().map((number) => number.phoneNumber)).toEqual(['+15105550000']);
  });

  it('releases a pool number (JSON) and answers 404 for a number not in the inventory', async () => {
    const bought = await acme.write('POST', '/carrier_numbers', { country: 'US', area_code: '510' });
    expect(bought.body).toEqual({ carrier_numbers: [{ number: '+15105550001', kind: 'pool' }] });
    const released = await acme.remove('/carrier_numbers/%2B15105550001');
    expect(released.body).toEqual({
      carrier_numbers: [
        {
          number: '+15105550001',
          released_at_carrier: '1',
          quarantined_until: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        },
      ],
    });
    expect(await inventory()).toEqual(['+15105550000']);
    expect(twilio.ownedNumbers().map((number) => number.phoneNumber)).toEqual(['+15105550000']);
    expect((await acme.remove('/carrier_numbers/%2B15105550001')).body).toEqual({
      error: { status: 404, message: 'number +15105550001 in the inventory of partner acme not found' },
    });
  });

  it('finishes a purchase a crash left unfinished when the service starts', async () => {
    const [acmeRow] = (await stores.dataSource.query(
      `SELECT id FROM partners WHERE name = 'acme'`,
    )) as Array<{
      id: string;
    }>;
    twilio.own('+17185550101', 'trackline crashed-at-start');
    await stores.dataSource.query(
      `INSERT INTO carrier_purchases (partner_id, e164, kind, friendly_name, state, created, modified)
       VALUES ($1, '+17185550101', 'pool', 'trackline crashed-at-start', 'intent', now(), now())`,
      [acmeRow!.id],
    );
    const restarted = await startTestService(
      testConfig(stores, { REPLACEMENT_PUBLIC_URL: 'https://calls.example.com' }),
      { reconcileCarrierPurchases: true },
    );
    try {
      const deadline = Date.now() + 10_000;
      while (!(await inventory()).includes('+17185550101')) {
        if (Date.now() > deadline) throw new Error('the purchase was not finished at start');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await restarted.close();
    }
    const [purchase] = (await stores.dataSource.query(
      `SELECT state FROM carrier_purchases WHERE friendly_name = 'trackline crashed-at-start'`,
    )) as Array<{ state: string }>;
    expect(purchase!.state).toBe('done');
  });
});
