import {
  decodeNumberIndexEntry,
  decodePartnerConfig,
  decodeSourceRoute,
  numberIndexKey,
  partnerKeys,
} from '@trackline/contracts';
import { createBiddingSetup, recordOf, type BiddingSetup } from '../test-support/bidding-setup';
import { E2E_TIMEOUT_MS, startE2eEnvironment, type E2eEnvironment } from '../test-support/e2e-environment';

const PARTNER = {
  advId: 'acme',
  username: 'acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBERS = ['+4722000001', '+4722000002'];
const CONDITION = {
  min_duration: '30',
  from_time: '08:00',
  to_time: '16:00',
  weekdays: 'mon,tue,wed,thu,fri',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

// The seed's call-bidding set-up over real HTTPS with digest auth, as a partner's
// server sends it, once in JSON and once in XML; what replacement will read is in Redis when each
// answer returns, read back with the contracts' decoders.
describe('call-bidding set-up over the partner API (seed flow)', () => {
  // Two services, a database and the operator CLI start per file; other suites share the 2 cores.
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;
  const usedDestnrs: string[] = [];

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'static', ...STATIC_NUMBERS);
  });

  afterAll(async () => {
    await env?.close();
  });

  const keys = () => partnerKeys(env.keyPrefix, PARTNER.advId);

  /** What replacement reads for this source, decoded as replacement decodes it. */
  async function expectProjected(setup: BiddingSetup, destnr: string, phonenr: string): Promise<void> {
    const expected = {
      sourceId: setup.sourceId,
      customerId: setup.customerId,
      destnr,
      phonenr,
      altNumbers: [],
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
      vmGreetingId: null,
      closed: false,
      stale: false,
    };
    expect(decodeSourceRoute((await env.redis.hget(keys().staticRoutes, destnr))!)).toEqual(expected);
    expect(decodeSourceRoute((await env.redis.hget(keys().sourcesByPhonenr, phonenr))!)).toEqual(expected);
    expect(decodeNumberIndexEntry((await env.redis.hget(numberIndexKey(env.keyPrefix), destnr))!)).toEqual({
      advId: PARTNER.advId,
      kind: 'static',
    });
    expect(decodePartnerConfig(await env.redis.hgetall(keys().config))).toMatchObject({
      advId: PARTNER.advId,
      signingSecret: PARTNER.signingSecret,
      timeZone: 'Europe/Oslo',
    });
  }

  /** The seed: every record value is a string or null (arrays and maps hold the same). */
  function expectWireValues(value: unknown, where = '$'): void {
    if (value === null || typeof value === 'string') return;
    if (typeof value !== 'object') throw new Error(`${where} is a ${typeof value}, not a string or null`);
    for (const [key, inner] of Object.entries(value)) expectWireValues(inner, `${where}.${key}`);
  }

  function claimDestnr(destnr: unknown): string {
    expect(STATIC_NUMBERS).toContain(destnr);
    expect(usedDestnrs).not.toContain(destnr);
    usedDestnrs.push(destnr as string);
    return destnr as string;
  }

  it('creates customer → pricing model → campaign → attached source in JSON', async () => {
    const setup = await createBiddingSetup(env.api, 'json', {
      custnr: '5001',
      phonenr: '91234567',
      costPerLead: '50',
      condition: CONDITION,
    });
    for (const answer of Object.values(setup.answers)) {
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expectWireValues(answer.body);
    }
    expect(setup.answers.customer.body.customers).toEqual([
      {
        customer_id: setup.customerId,
        name: 'Kari Bil AS',
        custnr: '5001',
        corporateid: null,
        email: null,
        uuid: expect.stringMatching(UUID),
        dncs_class_name: null,
        receive_monthly_report: '0',
        service_caller_id: '0',
      },
    ]);
    expect(setup.answers.pricingModel.body.pricing_models).toEqual([
      {
        pricing_model_id: expect.stringMatching(UUID),
        name: 'CPL weekdays',
        type: '0',
        unique_caller_time: '0',
        // "50" is kept as the exact two-decimal string.
        conditions: [{ cost_per_lead: '50.00', ...CONDITION }],
        used_by: [],
      },
    ]);
    // A created campaign is the one wrapped value that is an object, not an array.
    expect(setup.answers.campaign.body.campaigns).toEqual({
      campaign_id: setup.campaignId,
      timestamp: expect.stringMatching(TIMESTAMP),
      expire: null,
      pricing_model_id: setup.pricingModelId,
      notify_on_missed_call: '0',
      notify_on_new_voicemail: '0',
      vm_divert_all: '0',
      vm_divert_busy: '0',
      vm_divert_noanswer: '0',
      sources: null,
      partner_campaign_id: null,
      name: 'Spring sale',
      email: null,
      smsnumber: null,
      vm_greeting_id: null,
      state: '0',
    });
    const destnr = claimDestnr(setup.source.destnr);
    expect(setup.answers.source.body.sources).toEqual([
      {
        source_id: setup.sourceId,
        name: 'Finn ad',
        customer_id: setup.customerId,
        media: 'finn.no',
        phonenr: '+4791234567',
        destnr,
        campaign_id: setup.campaignId,
        publisher_id: null,
        email: null,
        smsnumber: null,
        status: 'active',
        class: expect.any(String),
        timestamp: expect.stringMatching(TIMESTAMP),
        expire: null,
        created: expect.stringMatching(TIMESTAMP),
        modified: expect.stringMatching(TIMESTAMP),
        vm_greeting_id: null,
        notify_on_missed_call: '0',
        notify_on_new_voicemail: '0',
        vm_divert_all: '0',
        vm_divert_busy: '0',
        vm_divert_noanswer: '0',
        alt_numbers: [],
      },
    ]);
    await expectProjected(setup, destnr, '+4791234567');

    const campaign = await env.api.read(`/customers/${setup.customerId}/campaigns/${setup.campaignId}`);
    expect(campaign.body.campaigns).toEqual([
      expect.objectContaining({ campaign_id: setup.campaignId, sources: { [setup.sourceId]: 'Finn ad' } }),
    ]);
    // The same campaign by the seed's other sub-resource path style.
    const byQuery = await env.api.read(
      `/customers/campaigns?customer_id=${setup.customerId}&campaign_id=${setup.campaignId}`,
    );
    expect(byQuery.body).toEqual(campaign.body);
    const pricingModel = await env.api.read(`/pricing_models/${setup.pricingModelId}`);
    expect(pricingModel.body.pricing_models).toEqual([
      expect.objectContaining({ used_by: [{ id: setup.campaignId, name: 'Spring sale' }] }),
    ]);
  });

  it('creates the same chain in XML (.xml suffix), with the seed’s XML shapes', async () => {
    const setup = await createBiddingSetup(env.api, 'xml', {
      custnr: '5002',
      phonenr: '22 33 44 55',
      costPerLead: '12.5',
      condition: CONDITION,
    });
    for (const answer of Object.values(setup.answers)) {
      expect(answer.headers['content-type']).toMatch(/^application\/xml/);
      expect(answer.text.startsWith(XML_HEAD)).toBe(true);
    }
    // Root = plural, one singular element per record, null = empty self-closing element.
    expect(setup.answers.customer.text).toContain(
      `<customers><customer><customer_id>${setup.customerId}</customer_id><name>Kari Bil AS</name><custnr>5002</custnr><corporateid/><email/>`,
    );
    expect(setup.customer).toEqual({
      customer_id: setup.customerId,
      name: 'Kari Bil AS',
      custnr: '5002',
      corporateid: '',
      email: '',
      uuid: expect.stringMatching(UUID),
      dncs_class_name: '',
      receive_monthly_report: '0',
      service_caller_id: '0',
    });
    expect(setup.answers.pricingModel.text).toContain(
      '<conditions><condition><cost_per_lead>12.50</cost_per_lead>',
    );
    expect(setup.pricingModel).toEqual({
      pricing_model_id: expect.stringMatching(UUID),
      name: 'CPL weekdays',
      type: '0',
      unique_caller_time: '0',
      conditions: { condition: { cost_per_lead: '12.50', ...CONDITION } },
      used_by: '',
    });
    expect(setup.answers.campaign.text).toContain(
      `<campaigns><campaign><campaign_id>${setup.campaignId}</campaign_id>`,
    );
    expect(setup.answers.campaign.text).toContain('<expire/>');
    expect(setup.answers.campaign.text).toContain('<sources/>');
    expect(setup.campaign).toMatchObject({
      pricing_model_id: setup.pricingModelId,
      name: 'Spring sale',
      state: '0',
      vm_divert_all: '0',
    });
    const destnr = claimDestnr(setup.source.destnr);
    expect(setup.source).toMatchObject({
      source_id: setup.sourceId,
      customer_id: setup.customerId,
      phonenr: '+4722334455',
      destnr,
      campaign_id: setup.campaignId,
      media: 'finn.no',
      status: 'active',
      notify_on_missed_call: '0',
      vm_divert_noanswer: '0',
      alt_numbers: '',
    });
    await expectProjected(setup, destnr, '+4722334455');

    const campaign = await env.api.read(
      `/customers/${setup.customerId}/campaigns/${setup.campaignId}`,
      'xml',
    );
    expect(campaign.text).toContain(`<sources><source id="${setup.sourceId}">Finn ad</source></sources>`);
    expect(recordOf(campaign, 'campaigns', 'campaign', 'xml').sources).toEqual({
      source: { '@_id': setup.sourceId, '#text': 'Finn ad' },
    });
    // XML chosen by the Accept header reads the same document.
    const accepted = await env.api.readAccepting(`/pricing_models/${setup.pricingModelId}`, 'xml');
    expect(accepted.text).toBe((await env.api.read(`/pricing_models/${setup.pricingModelId}`, 'xml')).text);
    expect(recordOf(accepted, 'pricing_models', 'pricing_model', 'xml').used_by).toEqual({
      item: { id: setup.campaignId, name: 'Spring sale' },
    });
  });
});
