import { TwilioNumbersSimulator } from './twilio-numbers-simulator';

type TwilioBody = Record<string, unknown>;

/** One field of every resource of a listed page. */
function field(list: unknown, name: string): unknown[] {
  return (list as TwilioBody[]).map((resource) => resource[name]);
}

describe('the Twilio phone-number API simulator', () => {
  let twilio: TwilioNumbersSimulator;
  beforeEach(async () => {
    twilio = new TwilioNumbersSimulator();
    await twilio.start();
  });
  afterEach(() => twilio.stop());

  const auth = (sid = twilio.accountSid, token = twilio.authToken) =>
    `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
  const account = () => `${twilio.baseUrl}/2010-04-01/Accounts/${twilio.accountSid}`;
  const get = async (path: string, authorization = auth()) => {
    const response = await fetch(`${account()}${path}`, { headers: { Authorization: authorization } });
    return { status: response.status, body: (await response.json()) as TwilioBody };
  };
  const post = async (form: Record<string, string>) => {
    const response = await fetch(`${account()}/IncomingPhoneNumbers.json`, {
      method: 'POST',
      headers: { Authorization: auth(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.status, body: (await response.json()) as TwilioBody };
  };

  it('lists stocked numbers by country, area code and Contains pattern, up to PageSize', async () => {
    twilio.stock({ country: 'US', areaCode: '510', count: 3 });
    twilio.stock({ country: 'US', areaCode: '415', count: 2 });
    const byArea = await get('/AvailablePhoneNumbers/US/Local.json?AreaCode=415&PageSize=10');
    expect(byArea.status).toBe(200);
    expect(field(byArea.body.available_phone_numbers, 'phone_number')).toEqual([
      '+14155550000',
      '+14155550001',
    ]);
    expect((byArea.body.available_phone_numbers as unknown[])[0]).toMatchObject({
      friendly_name: '(415) 555-0000',
      iso_country: 'US',
      capabilities: { voice: true },
    });
    expect(byArea.body.uri).toContain('/AvailablePhoneNumbers/US/Local.json?AreaCode=415');
    const pattern = await get('/AvailablePhoneNumbers/US/Local.json?Contains=510555***2');
    expect(field(pattern.body.available_phone_numbers, 'phone_number')).toEqual(['+15105550002']);
    const limited = await get('/AvailablePhoneNumbers/US/Local.json?PageSize=2');
    expect(limited.body.available_phone_numbers).toHaveLength(2);
    const none = await get('/AvailablePhoneNumbers/CA/Local.json');
    expect(none).toEqual({ status: 200, body: expect.objectContaining({ available_phone_numbers: [] }) });
  });

  it('buys a number with what the POST set, then no longer offers it; a second buy is 21422', async () => {
    twilio.stock({ country: 'US', areaCode: '510', count: 1 });
    const bought = await post({
      PhoneNumber: '+15105550000',
      VoiceUrl: 'https://calls.example/telephony/twilio/voice',
      VoiceMethod: 'POST',
      StatusCallback: 'https://manage.example/telephony/twilio/call-status',
      StatusCallbackMethod: 'POST',
      FriendlyName: 'trackline-1',
    });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({
      phone_number: '+15105550000',
      voice_url: 'https://calls.example/telephony/twilio/voice',
      status_callback: 'https://manage.example/telephony/twilio/call-status',
      friendly_name: 'trackline-1',
      account_sid: twilio.accountSid,
    });
    expect(String(bought.body.sid)).toMatch(/^PN[0-9a-f]{32}$/);
    expect(String(bought.body.date_created)).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    expect((await get('/AvailablePhoneNumbers/US/Local.json')).body.available_phone_numbers).toEqual([]);

    const again = await post({ PhoneNumber: '+15105550000' });
    expect(again).toEqual({
      status: 400,
      body: {
        code: 21422,
        message: 'PhoneNumber +15105550000 is not available.',
        more_info: 'https://www.twilio.com/docs/errors/21422',
        status: 400,
      },
    });
    expect(twilio.purchases()).toHaveLength(1);
    expect(twilio.purchases()[0]!.form.VoiceUrl).toBe('https://calls.example/telephony/twilio/voice');
  });

  it('buys by AreaCode, and answers 21422 when the area code has none left', async () => {
    twilio.stock({ country: 'US', areaCode: '212', count: 1 });
    expect((await post({ AreaCode: '212' })).body.phone_number).toBe('+12125550000');
    const none = await post({ AreaCode: '212' });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe(21422);
  });

  it('pages the owned numbers with next_page_uri and filters them by PhoneNumber', async () => {
    const owned = ['+15105550000', '+15105550001', '+15105550002'].map((n) => twilio.own(n));
    const first = await get('/IncomingPhoneNumbers.json?PageSize=2');
    expect(first.body).toMatchObject({ page: 0, page_size: 2, start: 0, end: 1, previous_page_uri: null });
    expect(field(first.body.incoming_phone_numbers, 'sid')).toEqual([owned[0]!.sid, owned[1]!.sid]);
    const nextResponse = await fetch(`${twilio.baseUrl}${String(first.body.next_page_uri)}`, {
      headers: { Authorization: auth() },
    });
    const second = (await nextResponse.json()) as TwilioBody;
    expect(second).toMatchObject({ page: 1, start: 2, end: 2, next_page_uri: null });
    expect(second.first_page_uri).toBe(first.body.first_page_uri);
    expect(field(second.incoming_phone_numbers, 'sid')).toEqual([owned[2]!.sid]);

    const filtered = await get(
      `/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent('+15105550001')}`,
    );
    expect(field(filtered.body.incoming_phone_numbers, 'phone_number')).toEqual(['+15105550001']);
    twilio.phoneNumberFilter = 'ignored';
    const unfiltered = await get(
      `/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent('+15105550001')}`,
    );
    expect(unfiltered.body.incoming_phone_numbers).toHaveLength(3);
  });

  it('releases an owned number with 204, and answers 20404 for an unknown sid', async () => {
    const owned = twilio.own('+15105550000');
    const url = `${account()}/IncomingPhoneNumbers/${owned.sid}.json`;
    const deleted = await fetch(url, { method: 'DELETE', headers: { Authorization: auth() } });
    expect(deleted.status).toBe(204);
    expect(twilio.ownedNumbers()).toEqual([]);
    const again = await fetch(url, { method: 'DELETE', headers: { Authorization: auth() } });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: 20404, status: 404 });
  });

  it('refuses a wrong token or another account with 401, code 20003', async () => {
    twilio.stock({ country: 'US', areaCode: '510', count: 1 });
    const wrong = await get('/AvailablePhoneNumbers/US/Local.json', auth(twilio.accountSid, 'wrong'));
    expect(wrong).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 20003, message: 'Authenticate', status: 401 }),
    });
    const missing = await fetch(`${account()}/IncomingPhoneNumbers.json`);
    expect(missing.status).toBe(401);
    expect(twilio.requests.map((request) => request.status)).toEqual([401, 401]);
  });

  it('answers the next N requests 429 (20429) when rate limiting is switched on', async () => {
    twilio.rateLimit(2);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await get('/IncomingPhoneNumbers.json'));
    expect(statuses.map((answer) => answer.status)).toEqual([429, 429, 200]);
    expect(statuses[0]!.body).toMatchObject({
      code: 20429,
      more_info: 'https://www.twilio.com/docs/errors/20429',
    });
  });

  it('answers only requests of the given method with a queued error', async () => {
    twilio.stock({ country: 'US', areaCode: '510', count: 1 });
    twilio.failWith(1, { status: 500, code: 20500, message: 'Internal Server Error' }, 'POST');
    expect((await get('/AvailablePhoneNumbers/US/Local.json')).status).toBe(200);
    expect(await post({ PhoneNumber: '+15105550000' })).toMatchObject({ status: 500, body: { code: 20500 } });
    expect((await post({ PhoneNumber: '+15105550000' })).status).toBe(201);
  });

  it("serves the same paths under SignalWire's /api/laml prefix", async () => {
    const signalwire = new TwilioNumbersSimulator({ pathPrefix: '/api/laml' });
    await signalwire.start();
    try {
      signalwire.stock({ country: 'US', areaCode: '510', count: 1 });
      const response = await fetch(
        `${signalwire.baseUrl}/2010-04-01/Accounts/${signalwire.accountSid}/AvailablePhoneNumbers/US/Local.json`,
        {
          headers: {
            Authorization: `Basic ${Buffer.from(`${signalwire.accountSid}:${signalwire.authToken}`).toString('base64')}`,
          },
        },
      );
      expect(response.status).toBe(200);
      expect(signalwire.baseUrl).toMatch(/\/api\/laml$/);
    } finally {
      await signalwire.stop();
    }
  });
});
