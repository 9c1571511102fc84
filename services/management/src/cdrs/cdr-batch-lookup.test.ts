import type { CallAttribution } from '@trackline/contracts';
import type { DialledNumber } from './cdr';
import type { CdrCampaignPricing } from '../campaigns/campaign-pricing.reader';
import type { CdrSource } from '../sources/cdr-sources.reader';
import {
  callKey,
  CdrBatchLookup,
  type BatchNumbers,
  type CallClaim,
  type CdrLookupStore,
} from './cdr-batch-lookup';
import type { CdrInput } from './cdr-input';
import { SAMPLE_CDR } from '../test-support/sample-cdr';
import { SAMPLE_GA4 } from '../test-support/sample-integration';

const POOL_NUMBER: DialledNumber = {
  partnerId: '1',
  advId: 'acme',
  timeZone: 'Europe/Oslo',
  country: 'NO',
  kind: 'pool',
  heldUntil: null,
};

const SOURCE: CdrSource = {
  id: '13',
  customerId: '7',
  custnr: 'B-7',
  name: 'Spring ad',
  campaignId: '4',
  media: null,
  sourceClass: 'standard',
  expire: null,
  publisherId: null,
  status: 'active',
  closedAt: null,
  email: null,
  smsnumber: null,
  notifyOnMissedCall: false,
  notifyOnNewVoicemail: false,
};

const PRICING: CdrCampaignPricing = {
  campaignId: '4',
  state: '0',
  pricingModelId: '55e3d998-ee46-447f-a45a-6d98f9f9d120',
  uniqueCallerSeconds: 86_400,
  conditions: [],
};

const CALL: CdrInput = {
  callId: 'call-1',
  anum: '+4798765432',
  bnum: '+4791000001',
  cnum: null,
  start: new Date('2026-11-27T07:00:00Z'),
  durationSeconds: 64,
  answered: true,
  voicemail: false,
  recording: null,
};

const ATTRIBUTION: CallAttribution = {
  callId: 'call-1',
  advId: 'acme',
  anum: '+4798765432',
  bnum: '+4791000001',
  at: '2026-11-27T07:00:00.000Z',
  action: 'dial',
  target: '+4722334455',
  sourceId: '13',
  customerId: null,
  vmGreetingId: null,
  sessionId: 'session-1',
  trackingId: 'visitor-1',
  fullUrl: null,
  fullReferrer: null,
  custnr: null,
  parameters: null,
  quarantined: false,
  kind: 'session',
  boundAt: null,
};

/** The lookups of one batch against a store that answers from memory. */
async function loadCall(
  call: CdrInput,
  numbers: BatchNumbers,
  attributed: { partnerId: string; pricing: CdrCampaignPricing } | null,
) {
  const claimReads: CallClaim[][] = [];
  const store: CdrLookupStore = {
    findClaimedRecords: async (claims) => {
      claimReads.push([...claims]);
      return new Map(
        claims.map((claim) => [
          callKey('1', CALL.callId),
          { ...SAMPLE_CDR, partnerId: '1', callId: CALL.callId, id: claim.cdrId },
        ]),
      );
    },
    findDialledNumbers: async () => numbers,
    findSourcesByIds: async () => [{ partnerId: '1', source: SOURCE, campaign: attributed }],
    findCustomerIds: async () => new Map(),
  };
  const lookup = await CdrBatchLookup.load(
    store,
    { find: async () => (call.bnum === POOL_NUMBER_E164 ? ATTRIBUTION : null) },
    { subscribedEventTypes: async () => new Map() },
    [call],
    numbers,
  );
  return Object.assign(lookup, { claimReads });
}

const POOL_NUMBER_E164 = CALL.bnum;

function loadPoolCall(
  campaign: { partnerId: string; pricing: CdrCampaignPricing } | null,
  claims: Map<string, CallClaim> = new Map(),
) {
  return loadCall(
    CALL,
    {
      numbers: new Map([[CALL.bnum, POOL_NUMBER]]),
      sources: new Map(),
      pricings: new Map(),
      claims,
      integrations: new Map([['1', []]]),
    },
    campaign,
  );
}

// docs/cdrs.md, Batches: a call's campaign comes with its source, in the batch's lookups.
describe('CdrBatchLookup', () => {
  it("answers a pool call's campaign pricing from its attributed source", async () => {
    const lookup = await loadPoolCall({ partnerId: '1', pricing: PRICING });

    expect(lookup.sourceById('1', '13')).toEqual(SOURCE);
    expect(lookup.pricing('1', '4')).toEqual(PRICING);
    // Another partner's campaign of that id is none of this one's.
    expect(lookup.pricing('2', '4')).toBeNull();
  });

  it('reads no record for a batch of new calls: the numbers round found no claim', async () => {
    const lookup = await loadPoolCall(null);

    expect(lookup.claimReads).toEqual([[]]);
    expect(lookup.existing('1', CALL.callId)).toBeNull();
  });

  it('reads the record of a call id the numbers round found claimed, and answers it as existing', async () => {
    const claim = { cdrId: '900', start: CALL.start };
    const lookup = await loadPoolCall(null, new Map([[callKey('1', CALL.callId), claim]]));

    expect(lookup.claimReads).toEqual([[claim]]);
    expect(lookup.existing('1', CALL.callId)).toMatchObject({ id: '900', callId: CALL.callId });
  });

  it('leaves the pricing unknown when the source has no campaign to read', async () => {
    const lookup = await loadPoolCall(null);

    expect(lookup.pricing('1', '4')).toBeUndefined();
  });

  it("answers a static number's campaign pricing from the numbers' round, for its own partner only", async () => {
    const staticCall: CdrInput = { ...CALL, bnum: '+4791000002' };
    const lookup = await loadCall(
      staticCall,
      {
        numbers: new Map([[staticCall.bnum, { ...POOL_NUMBER, kind: 'static' }]]),
        sources: new Map([[staticCall.bnum, { partnerId: '1', sources: [SOURCE] }]]),
        pricings: new Map([['4', { partnerId: '1', pricing: PRICING }]]),
        claims: new Map(),
        integrations: new Map([['1', [SAMPLE_GA4]]]),
      },
      null,
    );

    expect(lookup.pricing('1', '4')).toEqual(PRICING);
    expect(lookup.pricing('2', '4')).toBeNull();
    // The partner's integrations came with its number: its conversions are queued from these.
    expect(lookup.integrations('1')).toEqual([SAMPLE_GA4]);
    expect(lookup.integrations('2')).toBeUndefined();
  });
});
