import { canonicalAnum, type CallerStanding } from '@trackline/contracts';
import { NotFoundError, ServiceUnavailableError } from '@trackline/domain';
import type { ConversionQueue } from '../conversions/conversion-queue';
import type { CustomersStore } from '../customers/customers.store';
import type { UnitOfWork } from '../db/unit-of-work';
import { isStoreUnreachable } from '../http/error-handler';
import { planNotifications } from '../notifications/notification-planner';
import type { NotificationToSend } from '../notifications/outbox-writer';
import { callEvents, type WebhookEvent } from '../webhooks/webhook';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { WebhookSubscriptions } from '../webhooks/webhooks.store';
import type { DialledNumber } from './cdr';
import type { CallAttributionReader } from './call-attribution.reader';
import { CdrBatchLookup, type CdrLookupStore } from './cdr-batch-lookup';
import { priceCall } from './cdr-commission';
import { chooseCustomer } from './cdr-customer';
import { classifyFailure, type IngestOutcome } from './cdr-ingest-outcome';
import type { CdrInput } from './cdr-input';
import { chooseSource } from './cdr-source';
import { callerStanding, judgeSpam, noteStoredCall, type CallerHistory } from './cdr-spam';
import type { CdrWriteStore } from './cdrs.store';
import { newCdr } from './new-cdr';

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

/** Stores call records from every producer: the switch's route and the provider's calls. */
export interface CdrIngestion {
  /**
   * One outcome per record, in order. Rejects only when the batch's lookups cannot be made: with
   * ServiceUnavailableError (503, retry later) when a store is unreachable.
   */
  ingest(records: readonly CdrInput[], now: Date): Promise<IngestOutcome[]>;
}

/**
 * Call records (docs/cdrs.md): the batch's lookups in a few queries, then one transaction per
 * record, so a bad one spoils no other. Which source, which customer and what the call earns are
 * decided by cdr-source.ts, cdr-customer.ts and cdr-commission.ts; this service puts them in order.
 */
export class CdrIngestionService implements CdrIngestion {
  constructor(
    private readonly writes: UnitOfWork<CdrWriteStores>,
    private readonly lookups: CdrLookupStore,
    private readonly attributions: CallAttributionReader,
    private readonly webhookSubscriptions: WebhookSubscriptions,
    /** The caller's history and the partner's spam lists in Redis (docs/spam.md). */
    private readonly callers: CallerHistory,
  ) {}

  async ingest(records: readonly CdrInput[], now: Date): Promise<IngestOutcome[]> {
    let lookup: CdrBatchLookup;
    try {
      lookup = await CdrBatchLookup.load(this.lookups, this.attributions, this.webhookSubscriptions, records);
    } catch (error) {
      if (isStoreUnreachable(error))
        throw new ServiceUnavailableError('Call records cannot be stored right now; retry later');
      throw error;
    }
    const outcomes: IngestOutcome[] = [];
    for (const record of records) outcomes.push(await this.ingestOne(record, lookup, now));
    return outcomes;
  }

  /** Whatever fails here fails this record only (docs/cdrs.md, "Batches"). */
  private async ingestOne(call: CdrInput, lookup: CdrBatchLookup, now: Date): Promise<IngestOutcome> {
    // The tracking number names the partner, and call ids are unique per partner (docs/cdrs.md).
    const dialled = lookup.dialled(call.bnum);
    if (dialled === null)
      return classifyFailure(call.callId, new NotFoundError(`tracking number ${call.bnum}`));
    const existing = lookup.existing(dialled.partnerId, call.callId);
    if (existing !== null) return { ok: true, cdr: existing, created: false };
    try {
      // Before the transaction: Redis is no part of it, and a retried record notes the same members.
      const caller = { ...call, anum: canonicalAnum(call.anum, dialled.country) };
      const standing = await callerStanding(this.callers, dialled, caller);
      await noteStoredCall(this.callers, dialled, caller);
      return await this.writes.run((stores) => this.store(call, dialled, lookup, standing, now, stores));
    } catch (error) {
      return classifyFailure(call.callId, error);
    }
  }

  private async store(
    sent: CdrInput,
    dialled: DialledNumber,
    lookup: CdrBatchLookup,
    standing: CallerStanding,
    now: Date,
    { cdrs, notifications, webhooks, customers, conversions }: CdrWriteStores,
  ): Promise<IngestOutcome> {
    // The callers in their one stored form, read in the partner's country (docs/switch.md, "Numbers"):
    // pricing's unique-caller rule, erasure and the partner's filters all match on it.
    const call: CdrInput = {
      ...sent,
      anum: canonicalAnum(sent.anum, dialled.country),
      cnum: sent.cnum === null ? null : canonicalAnum(sent.cnum, dialled.country),
    };
    const attribution = lookup.attribution(call.callId, call.bnum);
    const { source, heldBack } = await chooseSource(cdrs, lookup, dialled, attribution, call);
    // The source's own threshold judges its calls, as it did at the voice webhook (docs/spam.md, Per source).
    const threshold = source?.spamThreshold ?? dialled.spamThreshold;
    const judged = judgeSpam({ ...dialled, spamThreshold: threshold }, call, attribution, standing);
    const pricing = await priceCall(cdrs, lookup, dialled, source?.campaignId ?? null, call);
    // Spam earns nothing (docs/spam.md); the record still names the campaign the call came in on.
    const priced = judged.spam ? { ...pricing, commission: null } : pricing;
    const customer = await chooseCustomer(cdrs, customers, lookup, dialled, attribution, source);
    if (customer?.created === true)
      await enqueueSubscribed(webhooks, lookup, dialled.partnerId, [
        { type: 'customer.created', customerId: customer.id },
      ]);
    const cdr = await cdrs.insert(
      newCdr({ call, dialled, customer, source, heldBack, attribution, priced, judged, now }),
    );
    if (cdr === null) {
      // A concurrent delivery of the same call (or its twin earlier in this batch) committed first.
      const twin = await cdrs.findByCallId(dialled.partnerId, call.callId);
      if (twin === null) throw new Error(`call ${call.callId} conflicted but is not stored`);
      return { ok: true, cdr: twin, created: false };
    }
    if (source !== null) await notifications.enqueue(planNotifications({ cdr, source }));
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
