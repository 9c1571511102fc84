import { compareDecimalIds } from '@trackline/domain';
import type { WebhookEvent } from '../webhooks/webhook';
import { callEvents } from '../webhooks/webhook';
import type { Cdr, NewCdr } from './cdr';
import { callKey, type CdrBatchLookup } from './cdr-batch-lookup';
import { priceBatch, pricingOf, type PricingCall } from './cdr-commission';
import { chooseCustomer, type CdrCustomer } from './cdr-customer';
import {
  enqueueSubscribed,
  notificationsOf,
  sourceAndJudge,
  type PreparedCall,
  type SourcedCall,
} from './cdr-call-write';
import type { CdrWriteStores } from './cdr-write-stores';
import { newCdr } from './new-cdr';

/** A concurrent delivery claimed one of the batch's call ids first: the batch is stored record by record. */
export class BatchTwinError extends Error {
  constructor() {
    super('a call id of the batch was claimed by a concurrent delivery');
    this.name = 'BatchTwinError';
  }
}

/**
 * A batch's records in one transaction, with the decisions storeCall makes for each record alone,
 * taken in the records' order (docs/cdrs.md, "Batches"): a handful of statements for the whole
 * batch instead of several per record. Throws when any record cannot be stored as decided (a value
 * the table refuses, a twin claimed by a concurrent delivery, a deadlock); the transaction rolls
 * back and the caller stores the records one by one, so a bad record still spoils no other.
 * Returns the stored records in the order given.
 */
export async function storeBatch(
  prepared: readonly PreparedCall[],
  lookup: CdrBatchLookup,
  now: Date,
  { cdrs, notifications, webhooks, customers, conversions, transcriptions }: CdrWriteStores,
): Promise<Cdr[]> {
  const sourced: SourcedCall[] = [];
  const pricings: PricingCall[] = [];
  for (const call of prepared) {
    const decided = await sourceAndJudge(cdrs, lookup, call);
    sourced.push(decided);
    pricings.push(await pricingOf(cdrs, lookup, call.dialled, decided.source?.campaignId ?? null, call.call));
  }
  // Spam earns nothing (docs/spam.md), so it is no lead for the batch's later calls either.
  const priced = await priceBatch(cdrs, pricings, (i) => !sourced[i]!.judged.spam);
  const chosen: Array<CdrCustomer | null> = [];
  const records: NewCdr[] = [];
  for (const [i, { call, dialled }] of prepared.entries()) {
    const { attribution, source, heldBack, judged } = sourced[i]!;
    const customer = await chooseCustomer(cdrs, customers, lookup, dialled, attribution, source);
    chosen.push(customer);
    const commission = judged.spam ? null : priced[i]!.commission;
    records.push(
      newCdr({
        call,
        dialled,
        customer,
        source,
        heldBack,
        attribution,
        priced: { ...priced[i]!, commission },
        judged,
        now,
      }),
    );
  }
  const inserted = await cdrs.insertMany(inLockOrder(records));
  if (inserted.length !== records.length) throw new BatchTwinError();
  const byKey = new Map(inserted.map((cdr) => [callKey(cdr.partnerId, cdr.callId), cdr]));
  const stored = records.map((record) => byKey.get(callKey(record.partnerId, record.callId))!);

  const events = new Map<string, WebhookEvent[]>();
  for (const [i, cdr] of stored.entries()) {
    const partnerEvents = events.get(cdr.partnerId) ?? [];
    const customer = chosen[i];
    if (customer?.created === true) partnerEvents.push({ type: 'customer.created', customerId: customer.id });
    partnerEvents.push(...callEvents(cdr));
    events.set(cdr.partnerId, partnerEvents);
  }
  await notifications.enqueue(stored.flatMap((cdr, i) => notificationsOf(cdr, sourced[i]!.source)));
  for (const [partnerId, partnerEvents] of events)
    await enqueueSubscribed(webhooks, lookup, partnerId, partnerEvents);
  await conversions.enqueueCalls(stored, (partnerId) => lookup.integrations(partnerId));
  await transcriptions.enqueueRecorded(stored);
  return stored;
}

const BUCKET_MS = 15 * 60_000;

/**
 * The records in the order the rollup trigger's counter rows are keyed (partner, customer, the
 * day and quarter hour of the start, source), so every batch locks those rows in one order and
 * two batches wait for each other instead of deadlocking (docs/cdrs.md, "Batches").
 */
function inLockOrder(records: readonly NewCdr[]): NewCdr[] {
  return [...records].sort(
    (a, b) =>
      compareIds(a.partnerId, b.partnerId) ||
      compareIds(a.customerId, b.customerId) ||
      Math.floor(a.start.getTime() / BUCKET_MS) - Math.floor(b.start.getTime() / BUCKET_MS) ||
      compareIds(a.sourceId, b.sourceId),
  );
}

/** Decimal ids in numeric order; null (no customer, no source) first. */
function compareIds(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return compareDecimalIds(a, b);
}
