import type { CallAttribution } from '@trackline/contracts';
import {
  isTracklineError,
  matchCommission,
  NotFoundError,
  parsePricingConditions,
  phoneNumberTypeName,
} from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import { planNotifications } from '../notifications/notification-planner';
import type { NotificationToSend } from '../notifications/outbox-writer';
import type { Cdr, CdrSource, DialledNumber, NewCdr } from './cdr';
import type { CallAttributionReader } from './call-attribution.reader';
import { CdrBatchLookup, type CdrLookupStore } from './cdr-batch-lookup';
import { parseCdrInput, type CdrInput } from './cdrs.dto';
import type { CdrWriteStore } from './cdrs.store';

/** The outbox bound to the record's transaction (Engineer E's OutboxWriter with its manager). */
export interface NotificationQueue {
  enqueue(items: NotificationToSend[]): Promise<void>;
}

export interface CdrWriteStores {
  cdrs: CdrWriteStore;
  notifications: NotificationQueue;
}

export type IngestOutcome =
  | { ok: true; cdr: Cdr; created: boolean }
  | { ok: false; callId: string | null; status: number; message: string };

const CAMPAIGN_STATE_ACTIVE = '0';

/**
 * POST /telephony/cdrs (SPEC §5, §7): the batch's lookups in a few queries, then one transaction per
 * record, so a bad one spoils no other.
 */
export class CdrIngestionService {
  constructor(
    private readonly writes: UnitOfWork<CdrWriteStores>,
    private readonly lookups: CdrLookupStore,
    private readonly attributions: CallAttributionReader,
  ) {}

  async ingest(records: readonly unknown[], now: Date): Promise<IngestOutcome[]> {
    const parsed = records.map(parseRecord);
    const lookup = await CdrBatchLookup.load(
      this.lookups,
      this.attributions,
      parsed.flatMap((entry) => ('input' in entry ? [entry.input] : [])),
    );
    const outcomes: IngestOutcome[] = [];
    for (const entry of parsed)
      outcomes.push('input' in entry ? await this.ingestOne(entry.input, lookup, now) : entry.failure);
    return outcomes;
  }

  private async ingestOne(input: CdrInput, lookup: CdrBatchLookup, now: Date): Promise<IngestOutcome> {
    const existing = lookup.existing(input.callId);
    if (existing !== null) return { ok: true, cdr: existing, created: false };
    try {
      return await this.writes.run((stores) => this.store(input, lookup, now, stores));
    } catch (error) {
      if (!isTracklineError(error)) throw error;
      return { ok: false, callId: input.callId, status: error.status, message: error.message };
    }
  }

  private async store(
    input: CdrInput,
    lookup: CdrBatchLookup,
    now: Date,
    { cdrs, notifications }: CdrWriteStores,
  ): Promise<IngestOutcome> {
    const dialled = lookup.dialled(input.bnum);
    if (dialled === null) throw new NotFoundError(`tracking number ${input.bnum}`);
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
    if (pricing !== null && pricing.state === CAMPAIGN_STATE_ACTIVE && input.answered) {
      await cdrs.lockCaller(pricing.campaignId, input.anum);
      const match = matchCommission({
        conditions: parsePricingConditions('conditions', pricing.conditions),
        uniqueCallerSeconds: pricing.uniqueCallerSeconds,
        call: {
          answered: input.answered,
          durationSeconds: input.durationSeconds,
          start: input.start,
          anum: input.anum,
        },
        timeZone: dialled.timeZone,
        callerLastLeadAt:
          pricing.uniqueCallerSeconds === 0
            ? null
            : await cdrs.nearestLeadAt(
                pricing.campaignId,
                input.anum,
                input.start,
                pricing.uniqueCallerSeconds,
              ),
        campaignActive: true,
      });
      commission = match?.commission ?? null;
    }

    const cdr = await cdrs.insert(
      newCdr(input, now, dialled, source, attribution, heldBack, pricing, commission),
    );
    if (cdr === null) {
      // A concurrent delivery of the same call (or its twin earlier in this batch) committed first.
      const twin = await cdrs.findByCallId(input.callId);
      if (twin === null) throw new Error(`call ${input.callId} conflicted but is not stored`);
      return { ok: true, cdr: twin, created: false };
    }
    if (source !== null)
      await notifications.enqueue(
        planNotifications({ cdr: { ...cdr, duration: cdr.durationSeconds }, source }),
      );
    return { ok: true, cdr, created: true };
  }
}

function parseRecord(raw: unknown): { input: CdrInput } | { failure: IngestOutcome } {
  try {
    return { input: parseCdrInput(raw) };
  } catch (error) {
    if (!isTracklineError(error)) throw error;
    return { failure: { ok: false, callId: readCallId(raw), status: error.status, message: error.message } };
  }
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
  if (dialled.kind === 'static') {
    const source = lookup.staticSource(dialled.partnerId, bnum);
    if (source === null || source.status === 'active') return { source, heldBack: false };
    // A late record for a call made while the source was still open belongs to it.
    if (source.closedAt !== null && source.closedAt > start) return { source, heldBack: false };
    const heldBack = dialled.heldUntil !== null && dialled.heldUntil > start;
    return heldBack ? { source, heldBack } : { source: null, heldBack: false };
  }
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
  source: CdrSource | null,
  attribution: CallAttribution | null,
  heldBack: boolean,
  pricing: { campaignId: string; pricingModelId: string } | null,
  commission: string | null,
): NewCdr {
  return {
    callId: input.callId,
    partnerId: dialled.partnerId,
    customerId: source?.customerId ?? null,
    custnr: source?.custnr ?? null,
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
    sessionId: attribution?.sessionId ?? null,
    trackingId: attribution?.trackingId ?? null,
    fullUrl: attribution?.fullUrl ?? null,
    fullReferrer: attribution?.fullReferrer ?? null,
    parameters: attribution?.parameters ?? null,
    recording: input.recording,
    timestamp: now,
  };
}

function readCallId(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const callId = (raw as Record<string, unknown>).call_id;
  return typeof callId === 'string' ? callId : null;
}
