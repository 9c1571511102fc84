import type { DialledNumber } from './cdr';
import type { CdrCampaignPricing } from '../campaigns/campaign-pricing.reader';
import { priceCall } from './cdr-commission';
import type { CdrInput } from './cdr-input';

const DIALLED: DialledNumber = {
  partnerId: '1',
  advId: 'acme',
  timeZone: 'Europe/Oslo',
  country: 'NO',
  kind: 'static',
  heldUntil: null,
};

// Monday 2026-03-02, 10:00 in Oslo: inside the weekday window.
const CALL: CdrInput = {
  callId: 'c-1',
  anum: '+4791234567',
  bnum: '+4740000001',
  cnum: null,
  start: new Date('2026-03-02T09:00:00Z'),
  durationSeconds: 60,
  answered: true,
  voicemail: false,
  recording: null,
};

function pricing(fields: Partial<CdrCampaignPricing> = {}): CdrCampaignPricing {
  return {
    campaignId: '7',
    state: '0',
    pricingModelId: '3f1c0c8e-2f7a-4f55-9a57-3c8d6f1d2b10',
    uniqueCallerSeconds: 0,
    conditions: [
      {
        cost_per_lead: '12.50',
        min_duration: '30',
        from_time: '08:00',
        to_time: '16:00',
        weekdays: 'mon,tue,wed,thu,fri',
      },
    ],
    ...fields,
  };
}

/** The store's side of pricing, recording the caller locks taken. */
function store(stored: CdrCampaignPricing | null, lastLeadAt: Date | null = null) {
  const locks: string[] = [];
  return {
    locks,
    findCampaignPricing: async () => stored,
    lockCaller: async (campaignId: string, anum: string) => void locks.push(`${campaignId} ${anum}`),
    nearestLeadAt: async () => lastLeadAt,
  };
}

const batch = (found: CdrCampaignPricing | null | undefined) => ({ pricing: () => found });

describe('priceCall', () => {
  it('prices nothing without a campaign', async () => {
    const cdrs = store(pricing());
    expect(await priceCall(cdrs, batch(pricing()), DIALLED, null, CALL)).toEqual({
      pricing: null,
      commission: null,
    });
  });

  it("earns the first matching condition's cost per lead, from the pricing the batch looked up", async () => {
    const cdrs = store(null);
    const priced = await priceCall(cdrs, batch(pricing()), DIALLED, '7', CALL);
    expect(priced).toEqual({ pricing: pricing(), commission: '12.50' });
    expect(cdrs.locks).toEqual([]);
  });

  it("reads the campaign's pricing in the record's transaction when the batch did not look it up", async () => {
    const cdrs = store(pricing());
    expect((await priceCall(cdrs, batch(undefined), DIALLED, '7', CALL)).commission).toBe('12.50');
  });

  it('names the campaign of a paused campaign but earns nothing', async () => {
    const priced = await priceCall(store(null), batch(pricing({ state: '1' })), DIALLED, '7', CALL);
    expect(priced).toEqual({ pricing: pricing({ state: '1' }), commission: null });
  });

  it('earns nothing outside the window, in the partner time zone', async () => {
    // 17:30 in Oslo.
    const late = { ...CALL, start: new Date('2026-03-02T16:30:00Z') };
    expect((await priceCall(store(null), batch(pricing()), DIALLED, '7', late)).commission).toBeNull();
  });

  it('locks the caller and blocks a repeat caller under the unique-caller rule', async () => {
    const unique = pricing({ uniqueCallerSeconds: 3600 });
    const repeat = store(null, new Date('2026-03-02T08:30:00Z'));
    expect((await priceCall(repeat, batch(unique), DIALLED, '7', CALL)).commission).toBeNull();
    expect(repeat.locks).toEqual(['7 +4791234567']);
    const first = store(null, new Date('2026-03-02T07:00:00Z'));
    expect((await priceCall(first, batch(unique), DIALLED, '7', CALL)).commission).toBe('12.50');
    expect(first.locks).toEqual(['7 +4791234567']);
  });

  it('takes no lock when the call could not earn anyway', async () => {
    const cdrs = store(null, new Date('2026-03-02T08:30:00Z'));
    const missed = { ...CALL, answered: false };
    expect(
      (await priceCall(cdrs, batch(pricing({ uniqueCallerSeconds: 3600 })), DIALLED, '7', missed)).commission,
    ).toBeNull();
    expect(cdrs.locks).toEqual([]);
  });
});
