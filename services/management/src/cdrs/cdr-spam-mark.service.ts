import { WITHHELD_CALLER, type CallerHistoryStore } from '@trackline/contracts';
import { monthHasEnded, monthOf, NotFoundError, type CountryCode } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type { Cdr } from './cdr';
import { priceCall } from './cdr-commission';
import type { CdrWriteStore } from './cdrs.store';

/** The partner re-marking one of its records. */
export interface MarkingPartner {
  id: string;
  /** The advId. */
  name: string;
  country: CountryCode;
  timeZone: string;
}

export interface SpamMarkResult {
  cdr: Cdr;
  /** False when the call's month had closed: the commission was left as it was. */
  commissionAdjusted: boolean;
}

const CDR_ID = /^[1-9]\d{0,18}$/;

/**
 * `PUT /cdrs/<cdr_id>/spam` (docs/spam.md, Re-marking a call): the partner says a call was spam or
 * was not. While the call's month is open (docs/cdrs.md, "When a month's figures are final") the
 * commission follows — spam earns nothing, not spam is priced again by its campaign's model as at
 * ingestion — and the day and report rollups follow it in the same transaction by their triggers;
 * once closed only the mark and the verdict change. Either way the caller's history learns it.
 * Marking a call as it is already marked changes nothing.
 */
export class CdrSpamMarks {
  constructor(
    private readonly writes: UnitOfWork<{ cdrs: CdrWriteStore }>,
    private readonly history: Pick<CallerHistoryStore, 'noteMark'>,
  ) {}

  async mark(partner: MarkingPartner, cdrId: string, spam: boolean, now: Date): Promise<SpamMarkResult> {
    if (!CDR_ID.test(cdrId)) throw new NotFoundError(`call record ${cdrId}`);
    const { result, was } = await this.writes.run(async ({ cdrs }) => {
      const cdr = await cdrs.lockById(partner.id, cdrId);
      if (cdr === null) throw new NotFoundError(`call record ${cdrId}`);
      const was = cdr.spamMarked;
      if (was === spam) return { result: { cdr, commissionAdjusted: false }, was };
      const open = !monthHasEnded(monthOf(cdr.start, partner.timeZone), now, partner.timeZone);
      const commission = open ? await commissionOf(cdrs, partner, cdr, spam) : cdr.commission;
      const updated = await cdrs.updateSpam(partner.id, cdr.id, { spam, spamMarked: spam, commission });
      return { result: { cdr: updated, commissionAdjusted: open }, was };
    });
    if (was !== spam && result.cdr.anum !== WITHHELD_CALLER) {
      await this.history.noteMark(partner.name, result.cdr.anum, markOf(was), markOf(spam)!);
    }
    return result;
  }
}

async function commissionOf(
  cdrs: CdrWriteStore,
  partner: MarkingPartner,
  cdr: Cdr,
  spam: boolean,
): Promise<string | null> {
  if (spam) return null;
  const priced = await priceCall(
    cdrs,
    { pricing: () => undefined },
    {
      partnerId: partner.id,
      advId: partner.name,
      timeZone: partner.timeZone,
      country: partner.country,
      kind: 'static',
      heldUntil: null,
    },
    cdr.campaignId,
    {
      callId: cdr.callId,
      anum: cdr.anum,
      bnum: cdr.bnum,
      cnum: cdr.cnum,
      start: cdr.start,
      durationSeconds: cdr.durationSeconds,
      answered: cdr.answered,
      voicemail: cdr.voicemail,
      recording: null,
    },
  );
  return priced.commission;
}

function markOf(spam: boolean | null): 'spam' | 'not_spam' | null {
  return spam === null ? null : spam ? 'spam' : 'not_spam';
}
