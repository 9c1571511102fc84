import {
  canonicalAnum,
  marketingIdsOf,
  TEXT_LIMITS,
  toStorableText,
  type CallAttribution,
} from '@trackline/contracts';
import {
  chooseStaticSource,
  decodeStoredPricingConditions,
  isTracklineError,
  matchCommission,
  needsCallerHistory,
  NotFoundError,
  phoneNumberTypeName,
  ServiceUnavailableError,
  type CommissionTerms,
} from '@trackline/domain';
import { CAMPAIGN_STATE_ACTIVE } from '../campaigns/campaign';
import type { ConversionQueue } from '../conversions/conversion-queue';
import { customerSeenValues } from '../customer-events/customer-seen-values';
import type { CustomersStore } from '../customers/customers.store';
import type { UnitOfWork } from '../db/unit-of-work';
import { isStoreUnreachable } from '../http/error-handler';
import { checkRecordInput } from '../http/request-input';
import { planNotifications } from '../notifications/notification-planner';
import type { NotificationToSend } from '../notifications/outbox-writer';
import { callEvents, type WebhookEvent } from '../webhooks/webhook';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { WebhookSubscriptions } from '../webhooks/webhooks.store';
import type { Cdr, CdrSource, DialledNumber, NewCdr } from './cdr';
import type { CallAttributionReader } from './call-attribution.reader';
import { recordAttribution } from './cdr-attribution';
import { CdrBatchLookup, sessionCustnr, type CdrLookupStore } from './cdr-batch-lookup';
import { parseCdrInput, type CdrInput } from './cdrs.dto';
import type { CdrWriteStore } from './cdrs.store';

/** The outbox bound to the record's transaction (docs/notifications.md). */
export interface NotificationQueue {
  enqueue(items: NotificationToSend[]): Promise<void>;
}

export interface CdrWriteStores {
  cdrs: CdrWriteStore;
  notifications: NotificationQueue;
  /** Partner webhooks for the record (docs/webhooks.md), in the record's transaction. */
  webhooks: WebhookEventQueue;
  /** Creates the customer a DNI session named when the customer-seen stream has not yet. */
  customers: Pick<CustomersStore, 'ensureSeen'>;
  /** The partner's Google Ads and GA4 conversions of the record (docs/conversions.md), in its transaction. */
  conversions: Pick<ConversionQueue, 'enqueueCall'>;
}

/**
 * Why a record was not stored, for `trackline_cdrs_ingested_total`: refused by a rule of the input
 * (`invalid`), a `bnum` that is no tracking number (`unknown_number`), the store unreachable
 * (`unavailable`, retry later), or an unexpected fault of ours (`error`, logged).
 */
export type IngestFailureReason = 'invalid' | 'unknown_number' | 'unavailable' | 'error';

export type IngestOutcome =
  | { ok: true; cdr: Cdr; created: boolean }
  | {
      ok: false;
      callId: string | null;
      status: number;
      message: string;
      reason: IngestFailureReason;
      /** The fault behind an `error` or `unavailable` outcome, for the log. */
      cause?: unknown;
    };

/**
 * POST /telephony/cdrs (docs/cdrs.md): the batch's lookups in a few queries, then one transaction per
 * record, so a bad one spoils no other.
 */
export class CdrIngestionService {
  constructor(
    private readonly writes: UnitOfWork<CdrWriteStores>,
    private readonly lookups: CdrLookupStore,
    private readonly attributions: CallAttributionReader,
    private readonly webhookSubscriptions: WebhookSubscriptions,
  ) {}

  /**
   * One outcome per record, in order. Rejects only when the batch's lookups cannot be made: with
   * ServiceUnavailableError (503, retry later) when a store is unreachable.
   */
  async ingest(records: readonly unknown[], now: Date): Promise<IngestOutcome[]> {
    const parsed = records.map(parseRecord);
    let lookup: CdrBatchLookup;
    try {
      lookup = await CdrBatchLookup.load(
        this.lookups,
        this.attributions,
        this.webhookSubscriptions,
        parsed.flatMap((entry) => ('input' in entry ? [entry.input] : [])),
      );
    } catch (error) {
      if (isStoreUnreachable(error))
        throw new ServiceUnavailableError('Call records cannot be stored right now; retry later');
      throw error;
    }
    const outcomes: IngestOutcome[] = [];
    for (const entry of parsed)
      outcomes.push('input' in entry ? await this.ingestOne(entry.input, lookup, now) : entry.failure);
    return outcomes;
  }

  /** Whatever fails here fails this record only (docs/cdrs.md, "Batches"). */
  private async ingestOne(input: CdrInput, lookup: CdrBatchLookup, now: Date): Promise<IngestOutcome> {
    // The tracking number names the partner, and call ids are unique per partner (docs/cdrs.md).
    const dialled = lookup.dialled(input.bnum);
    if (dialled === null) return failureOf(input.callId, new NotFoundError(`tracking number ${input.bnum}`));
    const existing = lookup.existing(dialled.partnerId, input.callId);
    if (existing !== null) return { ok: true, cdr: existing, created: false };
    try {
      return await this.writes.run((stores) => this.store(input, dialled, lookup, now, stores));
    } catch (error) {
      return failureOf(input.callId, error);
    }
  }

  private async store(
    sent: CdrInput,
    dialled: DialledNumber,
    lookup: CdrBatchLookup,
    now: Date,
    { cdrs, notifications, webhooks, customers, conversions }: CdrWriteStores,
  ): Promise<IngestOutcome> {
    // The callers in their one stored form, read in the partner's country (docs/switch.md, "Numbers"):
    // pricing's unique-caller rule, erasure and the partner's filters all match on it.
    const input: CdrInput = {
      ...sent,
      anum: canonicalAnum(sent.anum, dialled.country),
      cnum: sent.cnum === null ? null : canonicalAnum(sent.cnum, dialled.country),
    };
    const attribution = lookup.attribution(input.callId, input.bnum);
    const { source, heldBack } = await resolveSource(
      cdrs,
      lookup,
      dialled,
      attribution,
      input.bnum,
      input.start,
    );
    const campaignId = source?.campaignId ?? null;
    const pricing =
      campaignId === null
        ? null
        : (lookup.pricing(dialled.partnerId, campaignId) ??
          (await cdrs.findCampaignPricing(dialled.partnerId, campaignId)));

    let commission: string | null = null;
    if (pricing !== null) {
      const terms: CommissionTerms = {
        conditions: decodeStoredPricingConditions(pricing.conditions),
        uniqueCallerSeconds: pricing.uniqueCallerSeconds,
        call: {
          answered: input.answered,
          durationSeconds: input.durationSeconds,
          start: input.start,
          anum: input.anum,
        },
        timeZone: dialled.timeZone,
        campaignActive: pricing.state === CAMPAIGN_STATE_ACTIVE,
      };
      let callerLastLeadAt: Date | null = null;
      if (needsCallerHistory(terms)) {
        // Held until the record commits: one caller's calls into one campaign are priced one at a time.
        await cdrs.lockCaller(pricing.campaignId, input.anum);
        callerLastLeadAt = await cdrs.nearestLeadAt(
          pricing.campaignId,
          input.anum,
          input.start,
          pricing.uniqueCallerSeconds,
        );
      }
      commission = matchCommission({ ...terms, callerLastLeadAt })?.commission ?? null;
    }

    const customer = await decideCustomer(cdrs, customers, lookup, dialled, attribution, source);
    if (customer?.created === true)
      await enqueueSubscribed(webhooks, lookup, dialled.partnerId, [
        { type: 'customer.created', customerId: customer.id },
      ]);
    const cdr = await cdrs.insert(
      newCdr(input, now, dialled, customer, source, attribution, heldBack, pricing, commission),
    );
    if (cdr === null) {
      // A concurrent delivery of the same call (or its twin earlier in this batch) committed first.
      const twin = await cdrs.findByCallId(dialled.partnerId, input.callId);
      if (twin === null) throw new Error(`call ${input.callId} conflicted but is not stored`);
      return { ok: true, cdr: twin, created: false };
    }
    if (source !== null)
      await notifications.enqueue(
        planNotifications({ cdr: { ...cdr, duration: cdr.durationSeconds }, source }),
      );
    await enqueueSubscribed(webhooks, lookup, cdr.partnerId, callEvents(cdr));
    await conversions.enqueueCall(cdr);
    return { ok: true, cdr, created: true };
  }
}

/** Only what some webhook of the partner takes; the outbox statement re-checks each webhook's state. */
async function enqueueSubscribed(
  webhooks: WebhookEventQueue,
  lookup: CdrBatchLookup,
  partnerId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
  const subscribed = lookup.subscribedEvents(partnerId, events);
  if (subscribed.length > 0) await webhooks.enqueue(partnerId, subscribed);
}

function parseRecord(raw: unknown): { input: CdrInput } | { failure: IngestOutcome } {
  try {
    // The edge's rules for names and nesting, per record (docs/cdrs.md, "Batches").
    checkRecordInput(raw);
    return { input: parseCdrInput(raw) };
  } catch (error) {
    return { failure: failureOf(readCallId(raw), error) };
  }
}

// SQLSTATE class 22 (data exception): the values can never be stored, so a retry cannot help.
const DATA_EXCEPTION = /^22/;

function failureOf(callId: string | null, error: unknown): IngestOutcome {
  if (isTracklineError(error)) {
    const reason: IngestFailureReason =
      error instanceof NotFoundError ? 'unknown_number' : error.status === 503 ? 'unavailable' : 'invalid';
    return { ok: false, callId, status: error.status, message: error.message, reason };
  }
  if (isStoreUnreachable(error)) {
    return {
      ok: false,
      callId,
      status: 503,
      message: 'Call record cannot be stored right now; retry later',
      reason: 'unavailable',
      cause: error,
    };
  }
  const code = (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  if (typeof code === 'string' && DATA_EXCEPTION.test(code)) {
    return {
      ok: false,
      callId,
      status: 400,
      message: `record: cannot be stored (${(error as Error).message})`,
      reason: 'invalid',
      cause: error,
    };
  }
  return {
    ok: false,
    callId,
    status: 500,
    message: 'Call record could not be stored (internal error, logged)',
    reason: 'error',
    cause: error,
  };
}

/**
 * Whose call it is (docs/cdrs.md, "Whose call it is"): a pool-number call whose session named a
 * custnr belongs to that customer, created on the spot when the customer-seen stream has not
 * delivered it yet; any other call to the customer of its source, if it has one.
 */
async function decideCustomer(
  cdrs: CdrWriteStore,
  customers: Pick<CustomersStore, 'ensureSeen'>,
  lookup: CdrBatchLookup,
  dialled: DialledNumber,
  attribution: CallAttribution | null,
  source: CdrSource | null,
): Promise<{ id: string; custnr: string; created?: boolean } | null> {
  const custnr = dialled.kind === 'pool' && attribution !== null ? sessionCustnr(attribution) : null;
  if (custnr === null) {
    if (source === null) return null;
    // Deleted since the batch looked the source up: the record stays unattributed rather than orphaned.
    return (await keeps(cdrs, dialled, source.customerId, source))
      ? { id: source.customerId, custnr: source.custnr }
      : null;
  }
  if (source !== null && source.custnr === custnr && (await keeps(cdrs, dialled, source.customerId, source)))
    return { id: source.customerId, custnr };
  const known = lookup.customerId(dialled.partnerId, custnr);
  if (known !== undefined && (await keeps(cdrs, dialled, known, null))) return { id: known, custnr };
  const custname = attribution?.parameters?.custname;
  const custemail = attribution?.parameters?.custemail;
  const { seen } = customerSeenValues({
    advId: dialled.advId,
    custnr,
    at: 0,
    ...(typeof custname === 'string' ? { custname: toStorableText(custname) } : {}),
    ...(typeof custemail === 'string' ? { custemail: toStorableText(custemail) } : {}),
  });
  const { id, created } = await customers.ensureSeen(dialled.partnerId, custnr, seen);
  if (!(await cdrs.lockCustomer(dialled.partnerId, id)))
    throw new Error(`customer ${custnr} was deleted while its call was stored`);
  return { id, custnr, created };
}

/**
 * Static number: its open source, or the source that held it while the number is held back after
 * closing. Pool number: the source replacement attributed the call to, else the source whose
 * answering number the binding showed.
 */
async function resolveSource(
  cdrs: CdrWriteStore,
  lookup: CdrBatchLookup,
  dialled: DialledNumber,
  attribution: CallAttribution | null,
  bnum: string,
  start: Date,
): Promise<{ source: CdrSource | null; heldBack: boolean }> {
  if (dialled.kind === 'static')
    return chooseStaticSource(lookup.staticSources(dialled.partnerId, bnum), start, dialled.heldUntil);
  if (attribution === null) return { source: null, heldBack: false };
  if (attribution.sourceId !== null) {
    const source = await cdrs.findSourceById(dialled.partnerId, attribution.sourceId);
    if (source !== null) return { source, heldBack: false };
  }
  if (attribution.target === null) return { source: null, heldBack: false };
  return {
    source: await cdrs.findActiveSourceByPhonenr(dialled.partnerId, attribution.target),
    heldBack: false,
  };
}

function newCdr(
  input: CdrInput,
  now: Date,
  dialled: DialledNumber,
  customer: { id: string; custnr: string } | null,
  source: CdrSource | null,
  attribution: CallAttribution | null,
  heldBack: boolean,
  pricing: { campaignId: string; pricingModelId: string } | null,
  commission: string | null,
): NewCdr {
  return {
    callId: input.callId,
    partnerId: dialled.partnerId,
    customerId: customer?.id ?? null,
    custnr: customer?.custnr ?? null,
    sourceId: source?.id ?? null,
    campaignId: pricing?.campaignId ?? null,
    pricingModelId: pricing?.pricingModelId ?? null,
    start: input.start,
    durationSeconds: input.durationSeconds,
    anum: input.anum,
    bnum: input.bnum,
    cnum: input.cnum,
    answered: input.answered,
    voicemail: input.voicemail,
    anumNdcName: phoneNumberTypeName(input.anum),
    quarantined: heldBack || (attribution?.quarantined ?? false),
    commission,
    media: source?.media ?? null,
    sourceClass: source?.sourceClass ?? null,
    expire: source?.expire ?? null,
    publisherId: source?.publisherId ?? null,
    cliId: null,
    orderId: null,
    // Replacement accepts only what can be stored; an attribution an older version wrote is cleaned
    // by the one rule (docs/cdrs.md, "What both services accept") rather than losing the call.
    sessionId: storable(attribution?.sessionId, TEXT_LIMITS.sessionId),
    trackingId: storable(attribution?.trackingId, TEXT_LIMITS.trackingId),
    fullUrl: storable(attribution?.fullUrl),
    fullReferrer: storable(attribution?.fullReferrer),
    parameters: storableParameters(attribution?.parameters ?? null),
    ...recordAttribution(dialled, source, attribution),
    marketing: marketingIdsOf(attribution?.parameters),
    recording: input.recording,
    timestamp: now,
  };
}

/**
 * Whether the customer is still there and stays until the record commits. A customer with an open
 * source cannot be deleted (docs/cdrs.md, "Deleting a customer"), so a call on an open source needs
 * no lock; any other customer gets a key-share lock, which a concurrent delete waits for.
 */
async function keeps(
  cdrs: CdrWriteStore,
  dialled: DialledNumber,
  customerId: string,
  source: CdrSource | null,
): Promise<boolean> {
  if (source !== null && source.status === 'active' && source.customerId === customerId) return true;
  return cdrs.lockCustomer(dialled.partnerId, customerId);
}

function storable(text: string | null | undefined, maxCharacters?: number): string | null {
  return text === null || text === undefined ? null : toStorableText(text, maxCharacters);
}

function storableParameters(parameters: Record<string, string> | null): Record<string, string> | null {
  if (parameters === null) return null;
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(parameters))
    clean[toStorableText(key)] = typeof value === 'string' ? toStorableText(value) : String(value);
  return clean;
}

function readCallId(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const callId = (raw as Record<string, unknown>).call_id;
  return typeof callId === 'string' ? callId : null;
}
