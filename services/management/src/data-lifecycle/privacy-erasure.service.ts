import { NotFoundError, normalizePhoneNumber, type CountryCode } from '@trackline/domain';
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
    eraseCaller(partnerId: string, anums: readonly string[]): Promise<ErasedCaller>;
  };
  outbox: { redactCaller(cdrIds: readonly string[], anum: string, masked: string): Promise<number> };
  attributions: {
    erase(advId: string, anums: readonly string[], callIds: readonly string[]): Promise<number>;
  };
}

export interface ErasureReport {
  partner: string;
  caller: string;
  recordsMasked: number;
  recordingsDeleted: number;
  notificationsRedacted: number;
  attributionsDeleted: number;
}

/**
 * `privacy:erase` (docs/privacy.md): one caller's number out of a partner's records, recordings,
 * notifications and call attributions. Safe to repeat: a second run finds nothing left and changes
 * nothing. The records are masked last, so a run that fails half-way still finds them next time and
 * finishes the rest.
 */
export class PrivacyErasureService {
  constructor(private readonly deps: PrivacyErasureDeps) {}

  async erase(advId: string, caller: string): Promise<ErasureReport> {
    const partner = await this.deps.partners.findByName(advId);
    if (partner === null) throw new NotFoundError(`partner ${advId}`);
    const number = normalizePhoneNumber('caller', caller, partner.country);
    // The switch's spelling is stored as sent; the E.164 form and the operator's own are both tried.
    const anums = [...new Set([number, caller.trim()])];
    const found = await this.deps.cdrs.findCaller(partner.id, anums);
    let notificationsRedacted = await this.redact(found.cdrIds, anums);
    const attributionsDeleted = await this.deps.attributions.erase(partner.name, anums, found.callIds);
    const erased = await this.deps.cdrs.eraseCaller(partner.id, anums);
    // A call of theirs stored meanwhile.
    const known = new Set(found.cdrIds);
    notificationsRedacted += await this.redact(
      erased.cdrIds.filter((id) => !known.has(id)),
      anums,
    );
    return {
      partner: partner.name,
      caller: number,
      recordsMasked: erased.records,
      recordingsDeleted: erased.recordings,
      notificationsRedacted,
      attributionsDeleted,
    };
  }

  private async redact(cdrIds: readonly string[], anums: readonly string[]): Promise<number> {
    let redacted = 0;
    for (const anum of anums)
      redacted += await this.deps.outbox.redactCaller(cdrIds, anum, maskStoredAnum(anum));
    return redacted;
  }
}
