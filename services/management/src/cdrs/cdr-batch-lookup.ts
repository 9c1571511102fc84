import { isStorableText, ProjectionDecodeError, type CallAttribution } from '@trackline/contracts';
import { custnrProblem } from '../customer-events/customer-seen-values';
import type { Cdr, DialledNumber } from './cdr';
import type { CdrCampaignPricing } from '../campaigns/campaign-pricing.reader';
import type { CallAttributionReader } from './call-attribution.reader';
import type { CdrInput } from './cdr-input';
import type { AttributedSource, CdrSource } from '../sources/cdr-sources.reader';
import { customerKey } from '../customers/cdr-customers.reader';
import type { WebhookEventType } from '../webhooks/webhook';
import type { WebhookSubscriptions } from '../webhooks/webhooks.store';
import type { StoredIntegration } from '../integrations/integration';

/**
 * What a batch's records look up before their transactions, one query per kind for the whole batch
 * (docs/benchmarks.md, Targets: ≥ 1,000 calls/s). Read committed: a read just before a record's transaction
 * sees what the same read inside it would, and the insert's ON CONFLICT still catches a twin stored since.
 */
export interface CdrLookupStore {
  /**
   * The numbers the calls dialled with their owners; per static number, every source its partner
   * ever had on it, with its campaign's pricing; which of the calls' ids the number's partner has
   * stored a record for; and each owner's conversion integrations.
   */
  findDialledNumbers(calls: readonly SentCall[]): Promise<BatchNumbers>;
  /** The records of claimed call ids, by `callKey(partnerId, callId)`. */
  findClaimedRecords(claims: readonly CallClaim[]): Promise<Map<string, Cdr>>;
  /** The sources pool calls were attributed to, each with its campaign's pricing. */
  findSourcesByIds(
    wanted: ReadonlyArray<{ partnerId: string; sourceId: string }>,
  ): Promise<AttributedSource[]>;
  /** Customer ids by `customerKey(partnerId, custnr)`, for the custnrs DNI sessions named. */
  findCustomerIds(wanted: ReadonlyArray<{ partnerId: string; custnr: string }>): Promise<Map<string, string>>;
}

/** A call as the switch sent it: the number dialled names the partner whose call id it is. */
export interface SentCall {
  bnum: string;
  callId: string;
}

/** A call id's claim (`cdr_call_ids`): the partner's record of that call, and when it started. */
export interface CallClaim {
  cdrId: string;
  start: Date;
}

/** A call record's idempotency key (docs/cdrs.md, "Idempotency"): the partner is the tracking number's. */
export interface CallKey {
  partnerId: string;
  callId: string;
}

export function callKey(partnerId: string, callId: string): string {
  return `${partnerId} ${callId}`;
}

export function sourceKey(partnerId: string, sourceId: string): string {
  return `${partnerId} ${sourceId}`;
}

/** The batch's dialled numbers and static numbers' sources (chooseStaticSource picks), its first lookup. */
export interface BatchNumbers {
  numbers: Map<string, DialledNumber>;
  sources: Map<string, { partnerId: string; sources: CdrSource[] }>;
  /** The campaigns of those sources, by id, with the partner each belongs to and its pricing. */
  pricings: Map<string, { partnerId: string; pricing: CdrCampaignPricing }>;
  /** The calls' ids already claimed by the dialled number's partner, by `callKey(partnerId, callId)`. */
  claims: Map<string, CallClaim>;
  /** Every integration of each partner whose number was dialled (none: an empty list). */
  integrations: Map<string, StoredIntegration[]>;
}

/** The batch's lookups, answered from memory while its records are stored one by one. */
export class CdrBatchLookup {
  private constructor(
    private readonly stored: Map<string, Cdr>,
    private readonly numbers: Map<string, DialledNumber>,
    private readonly sources: Map<string, { partnerId: string; sources: CdrSource[] }>,
    private readonly pricings: Map<string, { partnerId: string; pricing: CdrCampaignPricing }>,
    private readonly attributions: Map<string, CallAttribution | Error>,
    private readonly customers: Map<string, string>,
    private readonly subscribed: Map<string, ReadonlySet<WebhookEventType>>,
    private readonly attributedSources: Map<string, CdrSource>,
    private readonly attributedSourceIds: Set<string>,
    private readonly partnerIntegrations: Map<string, StoredIntegration[]>,
  ) {}

  /**
   * The batch's first round, one query: the dialled numbers (whose partner, country and settings),
   * the static numbers' sources with their campaigns' pricing, the call ids their partners have
   * stored already and the partners' integrations. Everything else a record looks up needs the partner, so it comes after
   * (`load`); what needs only the number (the caller's standing in Redis) can go alongside that.
   */
  static numbers(store: CdrLookupStore, inputs: readonly CdrInput[]): Promise<BatchNumbers> {
    return store.findDialledNumbers(inputs.map(({ bnum, callId }) => ({ bnum, callId })));
  }

  static async load(
    store: CdrLookupStore,
    reader: CallAttributionReader,
    webhooks: WebhookSubscriptions,
    inputs: readonly CdrInput[],
    { numbers, sources, pricings: staticPricings, claims, integrations }: BatchNumbers,
  ): Promise<CdrBatchLookup> {
    // Whose call it is comes from the tracking number; a bnum that is none has no stored record.
    const dialled = inputs.filter((input) => numbers.has(input.bnum));
    // One round: a record stored already does not need the rest, but asking for it anyway is
    // cheaper than a round trip more for every new one. A batch of new calls claimed no id and
    // reads no record.
    const [stored, subscribed, found] = await Promise.all([
      store.findClaimedRecords([...claims.values()]),
      webhooks.subscribedEventTypes(unique(dialled.map((input) => numbers.get(input.bnum)!.partnerId))),
      // Concurrent GETs share the connection's pipeline: one round trip for the batch.
      Promise.allSettled(dialled.map((input) => reader.find(numbers.get(input.bnum)!.advId, input.callId))),
    ]);
    const attributions = new Map<string, CallAttribution | Error>();
    const custnrs: Array<{ partnerId: string; custnr: string }> = [];
    const sourceIds: Array<{ partnerId: string; sourceId: string }> = [];
    dialled.forEach((input, i) => {
      const partnerId = numbers.get(input.bnum)!.partnerId;
      if (stored.has(callKey(partnerId, input.callId))) return;
      const result = found[i]!;
      const key = attributionKey(input.callId, input.bnum);
      if (result.status === 'rejected') {
        // Redis unreachable fails the batch (503); a value that does not decode fails its record only.
        if (!(result.reason instanceof ProjectionDecodeError)) throw result.reason;
        attributions.set(key, result.reason);
        return;
      }
      const attribution = result.value;
      // An attribution routed for another number (a reused call id) is not this call's.
      if (attribution == null || attribution.bnum !== input.bnum) return;
      attributions.set(key, attribution);
      const custnr = sessionCustnr(attribution);
      if (custnr !== null) custnrs.push({ partnerId, custnr });
      if (attribution.sourceId !== null) sourceIds.push({ partnerId, sourceId: attribution.sourceId });
    });
    const [customers, attributedSources] = await Promise.all([
      store.findCustomerIds(custnrs),
      store.findSourcesByIds(sourceIds),
    ]);
    // A static source's campaign came with the numbers, a pool call's comes with its source: no
    // record's transaction reads one.
    const pricings = new Map(staticPricings);
    for (const { source, campaign } of attributedSources)
      if (campaign !== null && !pricings.has(source.campaignId!)) pricings.set(source.campaignId!, campaign);
    return new CdrBatchLookup(
      stored,
      numbers,
      sources,
      pricings,
      attributions,
      customers,
      subscribed,
      new Map(attributedSources.map(({ partnerId, source }) => [sourceKey(partnerId, source.id), source])),
      new Set(sourceIds.map(({ partnerId, sourceId }) => sourceKey(partnerId, sourceId))),
      integrations,
    );
  }

  /** The partner's record of this call, stored before the batch began. */
  existing(partnerId: string, callId: string): Cdr | null {
    return this.stored.get(callKey(partnerId, callId)) ?? null;
  }

  /**
   * The events some active webhook of the partner subscribed to when the batch began; a partner
   * without webhooks gets none, and its records no outbox statement.
   */
  subscribedEvents<Event extends { type: WebhookEventType }>(
    partnerId: string,
    events: readonly Event[],
  ): Event[] {
    const types = this.subscribed.get(partnerId);
    return types === undefined ? [] : events.filter((event) => types.has(event.type));
  }

  dialled(bnum: string): DialledNumber | null {
    return this.numbers.get(bnum) ?? null;
  }

  /** Throws the decode error when the stored attribution is unreadable (that record fails alone). */
  attribution(callId: string, bnum: string): CallAttribution | null {
    const found = this.attributions.get(attributionKey(callId, bnum)) ?? null;
    if (found instanceof Error) throw found;
    return found;
  }

  /** Undefined when the batch did not look this customer up or it did not exist then. */
  customerId(partnerId: string, custnr: string): string | undefined {
    return this.customers.get(customerKey(partnerId, custnr));
  }

  /** Every source the partner had on the static number. */
  staticSources(partnerId: string, destnr: string): readonly CdrSource[] {
    const found = this.sources.get(destnr);
    return found !== undefined && found.partnerId === partnerId ? found.sources : [];
  }

  /**
   * The source a pool call was attributed to; null when the batch looked it up and it is not the
   * partner's, undefined when the batch did not look it up.
   */
  sourceById(partnerId: string, sourceId: string): CdrSource | null | undefined {
    const key = sourceKey(partnerId, sourceId);
    if (!this.attributedSourceIds.has(key)) return undefined;
    return this.attributedSources.get(key) ?? null;
  }

  /** Undefined when the batch did not look this campaign up (a pool number's source). */
  pricing(partnerId: string, campaignId: string): CdrCampaignPricing | null | undefined {
    const found = this.pricings.get(campaignId);
    if (found === undefined) return undefined;
    return found.partnerId === partnerId ? found.pricing : null;
  }

  /**
   * The partner's integrations as the batch's first round read them (its conversions are queued
   * from these); undefined for a partner whose number the batch did not dial.
   */
  integrations(partnerId: string): readonly StoredIntegration[] | undefined {
    return this.partnerIntegrations.get(partnerId);
  }
}

/**
 * The custnr a DNI session named, or null: blank or absent means the visitor's page named no
 * customer (docs/cdrs.md, "Whose call it is").
 */
export function sessionCustnr(attribution: CallAttribution): string | null {
  const custnr = attribution.custnr;
  if (custnr === null || custnr.trim() === '') return null;
  // Replacement accepts no custnr a customer cannot have; one written by an older version is ignored.
  return custnrProblem(custnr) === undefined && isStorableText(custnr) ? custnr : null;
}

function attributionKey(callId: string, bnum: string): string {
  return `${bnum} ${callId}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
