import { createBiddingSetup, recordOf, type BiddingSetup } from '../test-support/bidding-setup';
import {
  E2E_TIMEOUT_MS,
  startE2eEnvironment,
  type E2eEnvironment,
  type JsonAnswer,
} from '../test-support/e2e-environment';
import { xmlList } from '../test-support/partner-api';

const PARTNER = {
  advId: 'acme',
  username: 'acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBER = '+4722000001';
const POOL_NUMBERS = ['+4791000001', '+4791000002', '+4791000003'];
const SOURCE_PHONENR = '+4723456789';
// 2026-03-02 is a Monday; Oslo is UTC+1, so 08:00–08:59Z is 09:00–09:59 local, inside the window.
const DAY = { from: '2026-03-02', to: '2026-03-03' };
const DNI_AT = Date.parse('2026-03-02T08:00:00Z');
const CONDITION = {
  min_duration: '30',
  from_time: '08:00',
  to_time: '16:00',
  weekdays: 'mon,tue,wed,thu,fri',
};
const DNI_PARAMETERS = { custnr: 'D-77', custname: 'Ola Bil AS', custemail: 'ola@example.no', adId: '1234' };
// The session's second request renames the customer; the binding keeps the latest parameters.
const LATER_PARAMETERS = { ...DNI_PARAMETERS, custname: 'Ola Bil Oslo AS' };
const FULL_URL = 'https://www.example.no/ad/1234?utm_source=finn';
const FULL_REFERRER = 'https://www.google.com/';

type Body = Record<string, unknown>;

interface Call {
  call_id: string;
  anum: string;
  bnum: string;
  start: string;
  duration: number;
  answered: 0 | 1;
}

interface PlacedCall extends Call {
  /** cost_per_lead of the model when the call was placed. */
  priceThen: string;
}

/** Exact sum of two-decimal strings, in cents, back as a two-decimal string. */
function sumOfDecimals(values: string[]): string {
  const cents = values.reduce((total, value) => {
    const match = /^(\d+)\.(\d\d)$/.exec(value);
    if (match === null) throw new Error(`not a two-decimal amount: ${value}`);
    return total + BigInt(match[1]!) * 100n + BigInt(match[2]!);
  }, 0n);
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

// The seed's bidding flow across both services. The partner sets up through the
// management API; a visitor's page gets a pool number from replacement; the switch routes calls
// through replacement and delivers their records to management; the partner lists them with
// commission and the DNI attribution; a price change affects later calls only.
describe('call-bidding flow end to end (seed)', () => {
  // Two services, a database and the operator CLI start per file; other suites share the 2 cores.
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;
  let setup: BiddingSetup;
  let poolNumber: string;
  let sessionId: string;
  const calls: Record<string, PlacedCall> = {};
  let currentPrice = '50.00';

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', STATIC_NUMBER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    env.replacement.clock.now = DNI_AT;
  });

  afterAll(async () => {
    await env?.close();
  });

  function call(callId: string, bnum: string, start: string, duration: number, answered: 0 | 1 = 1): Call {
    const anum = `+47980000${String(Object.keys(calls).length).padStart(2, '0')}`;
    calls[callId] = { call_id: callId, anum, bnum, start, duration, answered, priceThen: currentPrice };
    return { call_id: callId, anum, bnum, start, duration, answered };
  }

  /** The switch: route the call through replacement, then deliver its record to management. */
  async function placeCall(record: Call): Promise<Body> {
    const routed = await env.route({
      call_id: record.call_id,
      anum: record.anum,
      bnum: record.bnum,
      at: record.start,
    });
    expect(routed).toMatchObject({
      status: 200,
      body: {
        action: 'dial',
        target: SOURCE_PHONENR,
        partner: PARTNER.advId,
        customer_id: setup.customerId,
        source_id: setup.sourceId,
      },
    });
    if (record.bnum === poolNumber) expect(routed.body.session_id).toBe(sessionId);
    else expect(routed.body).not.toHaveProperty('session_id');
    const ingested = await env.ingest(record);
    expect(ingested.status).toBe(201);
    return (ingested.body.cdrs as Body[])[0]!;
  }

  /** `customer`: `customer_id=…` or `custnr=…`. */
  async function listCdrs(customer: string, format: 'json' | 'xml' = 'json') {
    const answer = await env.api.read(
      `/statistics/cdrs?${customer}&from_date=${DAY.from}&to_date=${DAY.to}&extended=1`,
      format,
    );
    expect(answer.status).toBe(200);
    return answer;
  }

  /** A signed replacement request for the source's number, as the partner's server sends it. */
  async function requestNumbers(parameters: Record<string, string>, session: string): Promise<JsonAnswer> {
    return env.visit({
      fullUrl: FULL_URL,
      numbers: '23 45 67 89',
      fullReferrer: FULL_REFERRER,
      parameters,
      requestIpAddress: '203.0.113.0',
      sessionId: session,
    });
  }

  /** The customer with `custnr` once it satisfies `ready`, through the partner API (the consumer runs behind it). */
  async function customerSeen(custnr: string, ready: (customer: Body) => boolean): Promise<Body | undefined> {
    let customer: Body | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const answer = await env.api.read(`/customers?custnr=${encodeURIComponent(custnr)}`);
      customer = answer.status === 200 ? (answer.body.customers as Body[])[0] : undefined;
      if (customer !== undefined && ready(customer)) return customer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return customer;
  }

  // One sequential story in one test: each step needs what the step before left (the partner's
  // setup, the visitor's session and pool number, the calls priced before the price change), so
  // they are not separate tests.
  it('sets up, hands a visitor a pool number, prices calls across a price change, then follows later changes', async () => {
    await setUpAndHandAVisitorAPoolNumber();
    await routeIngestAndPriceCallsAcrossAPriceChange();
    await followLaterChangesAndQuarantineAHeldBackCall();
  });

  /** Sets up through the API, hands a visitor a pool number, and sees the visitor’s customer. */
  async function setUpAndHandAVisitorAPoolNumber(): Promise<void> {
    setup = await createBiddingSetup(env.api, 'json', {
      custnr: '5001',
      phonenr: '23 45 67 89',
      costPerLead: '50',
      condition: CONDITION,
    });
    expect(setup.source).toMatchObject({
      destnr: STATIC_NUMBER,
      phonenr: SOURCE_PHONENR,
      campaign_id: setup.campaignId,
    });

    // The partner's server asks for the number shown on the ad page: the source's own number.
    const dni = await requestNumbers(DNI_PARAMETERS, '');
    expect(dni).toEqual({
      status: 200,
      body: {
        success: true,
        numbers: [
          {
            number_on_page: '23 45 67 89',
            replace_with: { e164: expect.any(String), local: expect.any(String) },
          },
        ],
        sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
    poolNumber = (dni.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164;
    sessionId = dni.body.sessionId as string;
    expect(POOL_NUMBERS).toContain(poolNumber);

    // The custnr of the request reaches management through the customer-seen stream (docs/redis-keys.md,
    // Customer-seen stream).
    expect(await customerSeen('D-77', (customer) => customer.name === 'Ola Bil AS')).toMatchObject({
      custnr: 'D-77',
      name: 'Ola Bil AS',
      email: 'ola@example.no',
    });
    // A later request of the same session keeps its number and updates the customer's name.
    const again = await requestNumbers(LATER_PARAMETERS, sessionId);
    expect(again.body).toMatchObject({ success: true, sessionId });
    expect((again.body.numbers as Array<{ replace_with: { e164: string } }>)[0]!.replace_with.e164).toBe(
      poolNumber,
    );
    expect(await customerSeen('D-77', (customer) => customer.name === 'Ola Bil Oslo AS')).toMatchObject({
      email: 'ola@example.no',
    });
  }

  /** Routes and ingests calls, prices them, and keeps earlier prices after a price change. */
  async function routeIngestAndPriceCallsAcrossAPriceChange(): Promise<void> {
    // Before the change: a lead on the static number, a lead on the pool number, a missed call, a short one.
    expect(await placeCall(call('c1', STATIC_NUMBER, '2026-03-02 08:05:00', 45))).toMatchObject({
      commission: '50.00',
    });
    expect(await placeCall(call('c2', poolNumber, '2026-03-02 08:06:00', 120))).toMatchObject({
      commission: '50.00',
      session_id: sessionId,
    });
    expect(await placeCall(call('c3', STATIC_NUMBER, '2026-03-02 08:07:00', 0, 0))).toMatchObject({
      commission: null,
    });
    // Exactly min_duration is not longer than it: no lead.
    expect(await placeCall(call('c4', poolNumber, '2026-03-02 08:08:00', 30))).toMatchObject({
      commission: null,
    });

    // cost_per_lead alone: the other condition values stay (seed: conditions merged by position).
    const changed = await env.api.write('PUT', `/pricing_models/${setup.pricingModelId}`, {
      conditions: '[{"cost_per_lead":"65.5"}]',
    });
    expect(changed.status).toBe(200);
    expect(recordOf(changed, 'pricing_models', 'pricing_model', 'json').conditions).toEqual([
      { cost_per_lead: '65.50', ...CONDITION },
    ]);
    currentPrice = '65.50';

    expect(await placeCall(call('c5', STATIC_NUMBER, '2026-03-02 08:15:00', 31))).toMatchObject({
      commission: '65.50',
    });
    expect(await placeCall(call('c6', poolNumber, '2026-03-02 08:16:00', 600))).toMatchObject({
      commission: '65.50',
    });
    expect(await placeCall(call('c7', poolNumber, '2026-03-02 08:17:00', 0, 0))).toMatchObject({
      commission: null,
    });
    // A repeat delivery of an earlier call changes nothing: it keeps the price it was stored with.
    const { priceThen: _price, ...c1 } = calls.c1!;
    const repeat = await env.ingest(c1);
    expect(repeat.status).toBe(200);
    expect((repeat.body.cdrs as Body[])[0]).toMatchObject({ call_id: 'c1', commission: '50.00' });

    // Static-number calls are the source's customer's; pool-number calls belong to the customer the
    // visitor's session named (custnr D-77), still attributed to the source the page showed.
    const staticAnswer = await listCdrs(`customer_id=${setup.customerId}`);
    expect(staticAnswer.body).toMatchObject({ total: 3, page: 0, pagesize: 1000, numpages: 1 });
    const dniAnswer = await listCdrs('custnr=D-77');
    expect(dniAnswer.body).toMatchObject({ total: 4, page: 0, pagesize: 1000, numpages: 1 });
    const dniCustomer = await customerSeen('D-77', () => true);
    const records = [...(staticAnswer.body.cdrs as Body[]), ...(dniAnswer.body.cdrs as Body[])].sort((a, b) =>
      String(a.start).localeCompare(String(b.start)),
    );
    const common = {
      source_id: setup.sourceId,
      campaign_id: setup.campaignId,
      pricing_model_id: setup.pricingModelId,
      media: 'finn.no',
      quarantined: '0',
    };
    const noDni = {
      customer_id: setup.customerId,
      custnr: '5001',
      session_id: null,
      tracking_id: null,
      full_url: null,
      full_referrer: null,
      parameters: null,
    };
    const dni = {
      customer_id: dniCustomer!.customer_id,
      custnr: 'D-77',
      session_id: sessionId,
      tracking_id: 'visitor-1',
      full_url: FULL_URL,
      full_referrer: FULL_REFERRER,
      parameters: LATER_PARAMETERS,
    };
    const expected: Array<[string, string, string, string | null, Body]> = [
      ['2026-03-02 08:05:00', STATIC_NUMBER, '1', '50.00', noDni],
      ['2026-03-02 08:06:00', poolNumber, '1', '50.00', dni],
      ['2026-03-02 08:07:00', STATIC_NUMBER, '0', null, noDni],
      ['2026-03-02 08:08:00', poolNumber, '1', null, dni],
      ['2026-03-02 08:15:00', STATIC_NUMBER, '1', '65.50', noDni],
      ['2026-03-02 08:16:00', poolNumber, '1', '65.50', dni],
      ['2026-03-02 08:17:00', poolNumber, '0', null, dni],
    ];
    expect(records).toEqual(
      expected.map(([start, bnum, answered, commission, attribution]) =>
        expect.objectContaining({ start, bnum, answered, commission, ...common, ...attribution }),
      ),
    );

    // Seed: summing commission over answered records with a commission gives the payable amount
    // and the count of verified leads — the calls longer than min_duration in the window.
    const leads = records.filter((record) => record.answered === '1' && record.commission !== null);
    const payable = Object.values(calls).filter(
      (c) => c.answered === 1 && c.duration > Number(CONDITION.min_duration),
    );
    expect(leads.map((record) => record.start)).toEqual(payable.map((c) => c.start));
    expect(leads.map((record) => record.commission)).toEqual(payable.map((c) => c.priceThen));
    const total = sumOfDecimals(leads.map((record) => record.commission as string));
    expect(total).toBe(sumOfDecimals(payable.map((c) => c.priceThen)));
    expect({ leads: leads.length, total }).toEqual({ leads: 4, total: '231.00' });

    // The same list in XML: the same records and commissions (null → empty element).
    const xml = await listCdrs(`customer_id=${setup.customerId}`, 'xml');
    expect(xml.text).toContain(
      '<cdrs><total>3</total><page>0</page><pagesize>1000</pagesize><numpages>1</numpages><cdr>',
    );
    const xmlRecords = xmlList<Body>((xml.body.cdrs as Body).cdr);
    expect(xmlRecords.map((record) => [record.cdr_id, record.commission, record.session_id])).toEqual(
      (staticAnswer.body.cdrs as Body[]).map((record) => [
        record.cdr_id,
        record.commission ?? '',
        record.session_id ?? '',
      ]),
    );
  }

  /** Follows later changes of the source and the campaign, and quarantines a held-back pool call. */
  async function followLaterChangesAndQuarantineAHeldBackCall(): Promise<void> {
    const base = { partner: PARTNER.advId, customer_id: setup.customerId, source_id: setup.sourceId };
    // Weekdays 09:20–10:00 Oslo time to the sales desk: 08:25Z is 09:25 local, inside the session.
    const altNumbers =
      '[{"phonenr":"23 00 09 99","weekdays":"mon,tue,wed,thu,fri","from_time":"09:20","to_time":"10:00"}]';
    const changed = await env.api.write('PUT', `/sources/${setup.sourceId}`, { alt_numbers: altNumbers });
    expect(changed.status).toBe(200);
    expect(recordOf(changed, 'sources', 'source', 'json').alt_numbers).toEqual([
      expect.objectContaining({ phonenr: '+4723000999', from_time: '09:20', to_time: '10:00' }),
    ]);
    for (const [callId, bnum] of [
      ['a1', STATIC_NUMBER],
      ['a2', poolNumber],
    ] as const) {
      const record = call(callId, bnum, '2026-03-02 08:25:00', 90);
      const routed = await env.route({ call_id: callId, anum: record.anum, bnum, at: record.start });
      expect(routed).toMatchObject({
        status: 200,
        body: {
          action: 'dial',
          target: '+4723000999',
          ...base,
          ...(bnum === poolNumber ? { session_id: sessionId } : {}),
        },
      });
      // Answered on the alt number, still the source's lead.
      expect((await env.ingest(record)).body.cdrs).toEqual([
        expect.objectContaining({
          source_id: setup.sourceId,
          campaign_id: setup.campaignId,
          commission: '65.50',
        }),
      ]);
    }

    // The campaign's diversion reaches the routes of its sources.
    const diverted = await env.api.write(
      'PUT',
      `/customers/${setup.customerId}/campaigns/${setup.campaignId}`,
      {
        vm_divert_all: '1',
      },
    );
    expect(diverted.status).toBe(200);
    const voicemail = call('a3', STATIC_NUMBER, '2026-03-02 08:26:00', 20);
    expect(
      await env.route({ call_id: 'a3', anum: voicemail.anum, bnum: STATIC_NUMBER, at: voicemail.start }),
    ).toEqual({
      status: 200,
      body: { action: 'voicemail', ...base },
    });

    // A paused campaign still names its calls but pays nothing.
    const paused = await env.api.write(
      'PUT',
      `/customers/${setup.customerId}/campaigns/${setup.campaignId}`,
      {
        vm_divert_all: '0',
        state: '1',
      },
    );
    expect(paused.status).toBe(200);
    const unpaid = call('a4', STATIC_NUMBER, '2026-03-02 08:27:00', 300);
    await env.route({ call_id: 'a4', anum: unpaid.anum, bnum: STATIC_NUMBER, at: unpaid.start });
    expect((await env.ingest(unpaid)).body.cdrs).toEqual([
      expect.objectContaining({
        campaign_id: setup.campaignId,
        pricing_model_id: setup.pricingModelId,
        commission: null,
      }),
    ]);

    // Past the session (08:00Z + 1800 s) the pool number is held back for 600 s: calls still reach
    // the binding's source and are marked quarantined; after that the number routes nowhere.
    const late = call('a5', poolNumber, '2026-03-02 08:35:00', 60);
    expect(
      await env.route({ call_id: 'a5', anum: late.anum, bnum: poolNumber, at: late.start }),
    ).toMatchObject({
      status: 200,
      body: { action: 'dial', target: '+4723000999', ...base, session_id: sessionId },
    });
    expect((await env.ingest(late)).body.cdrs).toEqual([
      expect.objectContaining({ source_id: setup.sourceId, quarantined: '1', session_id: sessionId }),
    ]);
    expect(
      await env.route({ call_id: 'a6', anum: late.anum, bnum: poolNumber, at: '2026-03-02 08:40:01' }),
    ).toMatchObject({
      status: 200,
      body: { action: 'reject', partner: PARTNER.advId },
    });
  }
});
