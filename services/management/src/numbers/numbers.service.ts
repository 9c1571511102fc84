import { expandNumberRange, formatUtcTimestamp, NotFoundError, ValidationError } from '@trackline/domain';
import type { Partner } from '../partners/partner';
import type { PartnersStore } from '../partners/partners.store';
import type { AnsweringNumbers } from './answering-numbers';
import type { NumberInventoryListener } from './number-inventory-listener';
import type { NumbersStore } from './numbers.store';
import { parseAddNumbers } from './numbers.dto';
import type { NumberKind } from './tracking-number.entity';
import { QUARANTINE_DAYS, type TakenNumber, type TrackingNumber } from './tracking-number';

/** Duplicates beyond this many are counted, not listed, so one message stays readable. */
const LISTED_DUPLICATES = 20;

export interface NumbersAdded {
  partner: Partner;
  kind: NumberKind;
  numbers: string[];
}

/** The operator's number inventory (numbers:add, numbers:list). */
export class NumbersService {
  constructor(
    private readonly partners: Pick<PartnersStore, 'findByName' | 'findById'>,
    private readonly numbers: NumbersStore,
    /** Told after each committed change (the Redis projections among them). */
    private readonly listeners: readonly NumberInventoryListener[],
    /** Numbers open sources ring, which must not become tracking numbers (no call loops). */
    private readonly answering?: AnsweringNumbers,
  ) {}

  /**
   * Adds every number of `specs` (numbers in any spelling, or ranges) or none: a number that is already in
   * anyone's inventory, or named twice, or released by this partner less than QUARANTINE_DAYS ago,
   * refuses the whole command, so a rerun after fixing the input never leaves half a range behind.
   */
  async add(partnerName: string, kind: string, specs: readonly string[], now: Date): Promise<NumbersAdded> {
    const { kind: checkedKind, specs: checkedSpecs } = parseAddNumbers({ kind, numbers: specs });
    const partner = await this.requirePartner(partnerName);
    return this.addChecked(partner, checkedKind, expandAll(checkedSpecs, partner), now);
  }

  /**
   * The same path for numbers already in E.164 (bought at the carrier): the same refusals, the same
   * listeners after the commit.
   */
  async addToPartner(
    partnerId: string,
    kind: NumberKind,
    numbers: readonly string[],
    now: Date,
  ): Promise<NumbersAdded> {
    const partner = await this.partners.findById(partnerId);
    if (partner === null) throw new NotFoundError(`partner ${partnerId}`);
    return this.addChecked(partner, kind, numbers, now);
  }

  /** Those of `numbers` the partner could add now: in nobody's inventory, not quarantined for it, ringing no source. */
  async addable(partnerId: string, numbers: readonly string[], now: Date): Promise<string[]> {
    const refused = new Set([
      ...(await this.numbers.findTaken(numbers)).map((number) => number.e164),
      ...(await this.numbers.quarantinedAmong(partnerId, numbers, now)).map((number) => number.e164),
      ...((await this.answering?.answeringNumbersAmong(numbers)) ?? []),
    ]);
    return numbers.filter((number) => !refused.has(number));
  }

  private async addChecked(
    partner: Partner,
    kind: NumberKind,
    numbers: readonly string[],
    now: Date,
  ): Promise<NumbersAdded> {
    const taken = await this.numbers.findTaken(numbers);
    if (taken.length > 0) throw duplicatesError(taken);
    const quarantined = await this.numbers.quarantinedAmong(partner.id, numbers, now);
    if (quarantined.length > 0) {
      const described = quarantined.map(
        (number) => `${number.e164} (until ${formatUtcTimestamp(number.until)} UTC)`,
      );
      throw new ValidationError(
        'numbers',
        `released by this partner less than ${QUARANTINE_DAYS} days ago (quarantine), nothing added: ${listSome(described)}`,
      );
    }
    const answering = (await this.answering?.answeringNumbersAmong(numbers)) ?? [];
    if (answering.length > 0) {
      throw new ValidationError(
        'numbers',
        `answering numbers of open sources (calls to them would loop), nothing added: ${listSome(answering)}`,
      );
    }
    if (!(await this.numbers.add(partner.id, kind, numbers, now))) {
      // Someone added one of them between the check and the insert; nothing of ours was stored.
      throw duplicatesError(await this.numbers.findTaken(numbers));
    }
    for (const listener of this.listeners) await listener.numbersChanged(partner.id);
    return { partner, kind, numbers: [...numbers] };
  }

  async list(partnerName: string): Promise<{ partner: Partner; numbers: TrackingNumber[] }> {
    const partner = await this.requirePartner(partnerName);
    return { partner, numbers: await this.numbers.list(partner.id) };
  }

  private async requirePartner(name: string): Promise<Partner> {
    const partner = await this.partners.findByName(name);
    if (partner === null) throw new NotFoundError(`partner ${name}`);
    return partner;
  }
}

// Each number read in the partner's country, as every edge reads it (docs/numbers-and-sources.md).
function expandAll(specs: readonly string[], partner: Partner): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const spec of specs) {
    for (const number of expandNumberRange(spec, spec, partner.country)) {
      if (seen.has(number)) repeated.add(number);
      seen.add(number);
    }
  }
  if (repeated.size > 0) {
    throw new ValidationError('numbers', `name these more than once: ${listSome([...repeated])}`);
  }
  return [...seen];
}

function duplicatesError(taken: readonly TakenNumber[]): ValidationError {
  const described = taken.map((number) => `${number.e164} (${number.partnerName}, ${number.kind})`);
  return new ValidationError('numbers', `already in the inventory, nothing added: ${listSome(described)}`);
}

function listSome(items: readonly string[]): string {
  const shown = items.slice(0, LISTED_DUPLICATES).join(', ');
  const more = items.length - LISTED_DUPLICATES;
  return more > 0 ? `${shown} and ${more} more` : shown;
}
