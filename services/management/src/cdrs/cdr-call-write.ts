import type { CallAttribution, CallerStanding } from '@trackline/contracts';
import { planNotifications } from '../notifications/notification-planner';
import type { NotificationToSend } from '../notifications/outbox-writer';
import type { WebhookEvent } from '../webhooks/webhook';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { Cdr, DialledNumber } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';
import type { CdrBatchLookup } from './cdr-batch-lookup';
import { priceCall } from './cdr-commission';
import { chooseCustomer } from './cdr-customer';
import type { IngestOutcome } from './cdr-ingest-outcome';
import type { CdrWriteStores } from './cdr-write-stores';
import type { CdrInput } from './cdr-input';
import { chooseSource } from './cdr-source';
import { judgeSpam, type SpamJudgement } from './cdr-spam';
import type { CdrWriteStore } from './cdrs.store';
import { newCdr } from './new-cdr';
import { callEvents } from '../webhooks/webhook';

/**
 * A record that passed what needs no transaction: its tracking number's partner, its callers in
 * their one stored form (read in the partner's country, docs/switch.md, "Numbers"), and the caller's
 * standing in the spam history (docs/spam.md).
 */
export interface PreparedCall {
  call: CdrInput;
  dialled: DialledNumber;
  standing: CallerStanding;
}

/** What a call's source and spam judgement are, decided alike alone or in a batch. */
export interface SourcedCall {
  attribution: CallAttribution | null;
  source: CdrSource | null;
  heldBack: boolean;
  judged: SpamJudgement;
}

export async function sourceAndJudge(
  cdrs: Pick<CdrWriteStore, 'findSourceById' | 'findActiveSourceByPhonenr'>,
  lookup: CdrBatchLookup,
  { call, dialled, standing }: PreparedCall,
): Promise<SourcedCall> {
  const attribution = lookup.attribution(call.callId, call.bnum);
  const { source, heldBack } = await chooseSource(cdrs, lookup, dialled, attribution, call);
  // The source's own threshold judges its calls, as it did at the voice webhook (docs/spam.md, Per source).
  const threshold = source?.spamThreshold ?? dialled.spamThreshold;
  const judged = judgeSpam({ ...dialled, spamThreshold: threshold }, call, attribution, standing);
  return { attribution, source, heldBack, judged };
}

/**
 * One record in its own transaction (docs/cdrs.md, "Batches"): the path a batch's records take
 * one by one when the batch as a whole could not be stored, and that finds a concurrent twin.
 */
export async function storeCall(
  prepared: PreparedCall,
  lookup: CdrBatchLookup,
  now: Date,
  { cdrs, notifications, webhooks, customers, conversions, transcriptions }: CdrWriteStores,
): Promise<IngestOutcome> {
  const { call, dialled } = prepared;
  const { attribution, source, heldBack, judged } = await sourceAndJudge(cdrs, lookup, prepared);
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
  await notifications.enqueue(notificationsOf(cdr, source));
  await enqueueSubscribed(webhooks, lookup, cdr.partnerId, callEvents(cdr));
  await conversions.enqueueCalls([cdr], (partnerId) => lookup.integrations(partnerId));
  await transcriptions.enqueueRecorded([cdr]);
  return { ok: true, cdr, created: true };
}

export function notificationsOf(cdr: Cdr, source: CdrSource | null): NotificationToSend[] {
  return source === null ? [] : planNotifications({ cdr, source });
}

/** Only what some webhook of the partner takes; the outbox statement re-checks each webhook's state. */
export async function enqueueSubscribed(
  webhooks: WebhookEventQueue,
  lookup: CdrBatchLookup,
  partnerId: string,
  events: readonly WebhookEvent[],
): Promise<void> {
  const subscribed = lookup.subscribedEvents(partnerId, events);
  if (subscribed.length > 0) await webhooks.enqueue(partnerId, subscribed);
}
