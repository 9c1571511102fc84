import type { CallAttribution } from '@trackline/contracts';
import type { CdrCampaignPricing, CdrSource, DialledNumber } from './cdr';
import { CdrBatchLookup, type CdrLookupStore } from './cdr-batch-lookup';
import type { CdrInput } from './cdr-input';

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

/** The lookups of one batch against a store that answers from memory and counts its campaign reads. */
async function loadPoolCall(campaign: { partnerId: string; pricing: CdrCampaignPricing } | null) {
  const campaignReads: string[][] = [];
  const store: CdrLookupStore = {
    findByCallIds: async () => new Map(),
    findDialledNumbers: async () => ({ numbers: new Map(), sources: new Map() }),
    findCampaignPricings: async (ids) => {
      campaignReads.push([...ids]);
      return new Map();
    },
    findSourcesByIds: async () => [{ partnerId: '1', source: SOURCE, campaign }],
    findCustomerIds: async () => new Map(),
  };
  const lookup = await CdrBatchLookup.load(
    store,
    { find: async () => ATTRIBUTION },
    { subscribedEventTypes: async () => new Map() },
    [CALL],
    { numbers: new Map([[CALL.bnum, POOL_NUMBER]]), sources: new Map() },
  );
  return { lookup, campaignReads };
}

// docs/cdrs.md, Batches: a pool call's campaign comes with its attributed source, before the transaction.
describe('CdrBatchLookup', () => {
  it("answers a pool call's campaign pricing from its attributed source, without a campaign read of its own", async () => {
    const { lookup, campaignReads } = await loadPoolCall({ partnerId: '1', pricing: PRICING });

    expect(lookup.sourceById('1', '13')).toEqual(SOURCE);
    expect(lookup.pricing('1', '4')).toEqual(PRICING);
    // Another partner's campaign of that id is none of this one's.
    expect(lookup.pricing('2', '4')).toBeNull();
    // Only the static numbers' campaigns are read in the round before (none here).
    expect(campaignReads).toEqual([[]]);
  });

  it('leaves the pricing unknown when the source has no campaign to read', async () => {
    const { lookup } = await loadPoolCall(null);

    expect(lookup.pricing('1', '4')).toBeUndefined();
  });
});
