import {
  NotFoundError,
  normalizePhoneNumber,
  phoneNumberSpellings,
  type CountryCode,
} from '@trackline/domain';
import type { ErasedCaller } from '../cdrs/cdr-lifecycle.store';
import { maskStoredAnum } from '../cdrs/stored-anum-mask';

export interface ErasurePartner {
  id: string;
  name: string;
  country: CountryCode;
}

export interface PrivacyErasureDeps {
  partners: { findByName(name: string): Promise<ErasurePartner | null> };
  cdrs: {
    findCaller(partnerId: string, anums: readonly string[]): Promise<{ cdrIds: string[]; callIds: string[] }>;
    eraseCaller(partnerId: string, anums: readonly string[], masked: string): Promise<ErasedCaller>;
  };
  outbox: {
    redactCaller(cdrIds: readonly string[], spellings: readonly string[], masked: string): Promise<number>;
  };
  /** The recorded answers of receivers to the records' webhook deliveries. */
  webhookDeliveries: {
    redactCaller(cdrIds: readonly string[], spellings: readonly string[], masked: string): Promise<number>;
  };
  attributions: {
    erase(advId: string, anums: readonly string[], callIds: readonly string[]): Promise<number>;
  };
  /** The partner's spam lists and the caller's history (docs/spam.md). */
  spam: { erase(partnerId: string, advId: string, anums: readonly string[]): Promise<number> };
  /** The partner's tracking numbers: the provider calls to them are the partner's. */
  trackingNumbers: { holdBacks(partnerId: string): Promise<Map<string, Date | null>> };
  /**
   * Answered calls' recordings, their jobs and transcripts, what the caller said (docs/privacy.md,
   * docs/call-intelligence.md).
   */
  callIntelligence: {
    eraseRecords(cdrIds: readonly string[]): Promise<{ recordings: number; transcripts: number }>;
  };
  providerCalls: {
    maskCaller(
      trackingNumbers: readonly string[],
      spellings: readonly string[],
      masked: string,
    ): Promise<number>;
  };
}

export interface ErasureReport {
  partner: string;
  caller: string;
  recordsMasked: number;
  cnumsMasked: number;
  recordingsDeleted: number;
  transcriptsDeleted: number;
  notificationsRedacted: number;
  webhookDeliveriesRedacted: number;
  attributionsDeleted: number;
  providerCallsMasked: number;
  /** Block/allow list entries and caller-history keys. */
  spamEntriesErased: number;
}

/**
 * `privacy:erase` (docs/privacy.md): one caller's number out of a partner's records, recordings,
 * transcripts, notifications, webhook deliveries, call attributions, provider calls, spam lists and history. Safe to repeat: a second
 * run finds nothing left and changes nothing. The records are masked last, so a run that fails
 * half-way still finds them next time and finishes the rest.
 */
export class PrivacyErasureService {
  constructor(private readonly deps: PrivacyErasureDeps) {}

  async erase(advId: string, caller: string): Promise<ErasureReport> {
    const partner = await this.deps.partners.findByName(advId);
    if (partner === null) throw new NotFoundError(`partner ${advId}`);
    const number = normalizePhoneNumber('caller', caller, partner.country);
    // Stored callers are E.164 since every edge reads them one way; what an older version stored as
    // the switch sent it, or a text written from it, is found by its other spellings. Longest first:
    // a text loses "+4791234567" before its tail "91234567" is looked for.
    const anums = [...new Set([...phoneNumberSpellings(number), caller.trim()])].sort(
      (a, b) => b.length - a.length,
    );
    const masked = maskStoredAnum(number);
    const found = await this.deps.cdrs.findCaller(partner.id, anums);
    let notificationsRedacted = await this.redact(found.cdrIds, anums, masked);
    let webhookDeliveriesRedacted = await this.deps.webhookDeliveries.redactCaller(
      found.cdrIds,
      anums,
      masked,
    );
    const attributionsDeleted = await this.deps.attributions.erase(partner.name, anums, found.callIds);
    const providerCallsMasked = await this.deps.providerCalls.maskCaller(
      [...(await this.deps.trackingNumbers.holdBacks(partner.id)).keys()],
      anums,
      masked,
    );
    const spamEntriesErased = await this.deps.spam.erase(partner.id, partner.name, anums);
    const erased = await this.deps.cdrs.eraseCaller(partner.id, anums, masked);
    // A call of theirs stored meanwhile.
    const known = new Set(found.cdrIds);
    const storedMeanwhile = erased.cdrIds.filter((id) => !known.has(id));
    // After the records: a job queued meanwhile for one of them is deleted too, and finds no recording.
    const conversations = await this.deps.callIntelligence.eraseRecords([
      ...found.cdrIds,
      ...storedMeanwhile,
    ]);
    notificationsRedacted += await this.redact(storedMeanwhile, anums, masked);
    webhookDeliveriesRedacted += await this.deps.webhookDeliveries.redactCaller(
      storedMeanwhile,
      anums,
      masked,
    );
    return {
      partner: partner.name,
      caller: number,
      recordsMasked: erased.records,
      cnumsMasked: erased.cnumsMasked,
      recordingsDeleted: erased.recordings + conversations.recordings,
      transcriptsDeleted: conversations.transcripts,
      notificationsRedacted,
      webhookDeliveriesRedacted,
      attributionsDeleted,
      providerCallsMasked,
      spamEntriesErased,
    };
  }

  /** Every spelling in the notifications' texts becomes the masked E.164 form. */
  private redact(cdrIds: readonly string[], anums: readonly string[], masked: string): Promise<number> {
    return this.deps.outbox.redactCaller(cdrIds, anums, masked);
  }
}
