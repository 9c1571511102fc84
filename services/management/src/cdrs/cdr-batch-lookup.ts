import type { CallAttribution } from '@trackline/contracts';
import type { Cdr, CdrCampaignPricing, CdrSource, DialledNumber } from './cdr';
import type { CallAttributionReader } from './call-attribution.reader';
import type { CdrInput } from './cdrs.dto';

/**
 * What a batch's records look up before their transactions, one query per kind for the whole batch
 * (SPEC §11: ≥ 1,000 calls/s). Read committed: a read just before a record's transaction sees what
 * the same read inside it would, and the insert's ON CONFLICT still catches a twin stored since.
 */
export interface CdrLookupStore {
  findByCallIds(callIds: readonly string[]): Promise<Map<string, Cdr>>;
  findDialledNumbers(e164s: readonly string[]): Promise<Map<string, DialledNumber>>;
  /** Per static number: its partner's open source on it, else the one that held it last. */
  findStaticSources(
    destnrs: readonly string[],
  ): Promise<Map<string, { partnerId: string; source: CdrSource }>>;
  findCampaignPricings(
    campaignIds: readonly string[],
  ): Promise<Map<string, { partnerId: string; pricing: CdrCampaignPricing }>>;
}

/** The batch's lookups, answered from memory while its records are stored one by one. */
export class CdrBatchLookup {
  private constructor(
    private readonly stored: Map<string, Cdr>,
    private readonly numbers: Map<string, DialledNumber>,
    private readonly sources: Map<string, { partnerId: string; source: CdrSource }>,
    private readonly pricings: Map<string, { partnerId: string; pricing: CdrCampaignPricing }>,
    private readonly attributions: Map<string, CallAttribution>,
  ) {}

  static async load(
    store: CdrLookupStore,
    reader: CallAttributionReader,
    inputs: readonly CdrInput[],
  ): Promise<CdrBatchLookup> {
    const bnums = unique(inputs.map((input) => input.bnum));
    const [stored, numbers, sources] = await Promise.all([
      store.findByCallIds(unique(inputs.map((input) => input.callId))),
      store.findDialledNumbers(bnums),
      store.findStaticSources(bnums),
    ]);
    const campaignIds = unique(
      [...sources.values()].flatMap(({ source }) => (source.campaignId === null ? [] : [source.campaignId])),
    );
    const wanted = inputs.filter((input) => !stored.has(input.callId) && numbers.has(input.bnum));
    const [pricings, found] = await Promise.all([
      store.findCampaignPricings(campaignIds),
      // Concurrent GETs share the connection's pipeline: one round trip for the batch.
      Promise.all(wanted.map((input) => reader.find(numbers.get(input.bnum)!.advId, input.callId))),
    ]);
    const attributions = new Map<string, CallAttribution>();
    wanted.forEach((input, i) => {
      const attribution = found[i];
      // An attribution routed for another number (a reused call id) is not this call's.
      if (attribution != null && attribution.bnum === input.bnum)
        attributions.set(attributionKey(input.callId, input.bnum), attribution);
    });
    return new CdrBatchLookup(stored, numbers, sources, pricings, attributions);
  }

  existing(callId: string): Cdr | null {
    return this.stored.get(callId) ?? null;
  }

  dialled(bnum: string): DialledNumber | null {
    return this.numbers.get(bnum) ?? null;
  }

  attribution(callId: string, bnum: string): CallAttribution | null {
    return this.attributions.get(attributionKey(callId, bnum)) ?? null;
  }

  staticSource(partnerId: string, destnr: string): CdrSource | null {
    const found = this.sources.get(destnr);
    return found !== undefined && found.partnerId === partnerId ? found.source : null;
  }

  /** Undefined when the batch did not look this campaign up (a pool number's source). */
  pricing(partnerId: string, campaignId: string): CdrCampaignPricing | null | undefined {
    const found = this.pricings.get(campaignId);
    if (found === undefined) return undefined;
    return found.partnerId === partnerId ? found.pricing : null;
  }
}

function attributionKey(callId: string, bnum: string): string {
  return `${bnum} ${callId}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
