import type { NumbersStore, StaticNumberAllocator } from './numbers.store';
import type { NumberKind } from './tracking-number.entity';
import type { QuarantinedNumber, TakenNumber, TrackingNumber } from './tracking-number';

interface FakeNumber {
  partnerId: string;
  e164: string;
  kind: NumberKind;
  addedAt: Date;
  heldUntil: Date | null;
  freeSince: Date | null;
}

/** In-memory inventory for unit tests; same choice rule as the database (free longest, not held back). */
export class FakeNumbersStore implements NumbersStore, StaticNumberAllocator {
  private readonly numbers: FakeNumber[] = [];
  /** partner id → name, for findTaken's message. */
  readonly partnerNames = new Map<string, string>();
  /** Released numbers: `<partner id> <e164>` → end of the quarantine. */
  readonly quarantines = new Map<string, Date>();

  async quarantinedAmong(
    partnerId: string,
    numbers: readonly string[],
    now: Date,
  ): Promise<QuarantinedNumber[]> {
    return numbers
      .map((e164) => ({ e164, until: this.quarantines.get(`${partnerId} ${e164}`) }))
      .filter((entry): entry is QuarantinedNumber => entry.until !== undefined && entry.until > now)
      .sort((a, b) => a.e164.localeCompare(b.e164));
  }

  async findTaken(numbers: readonly string[]): Promise<TakenNumber[]> {
    return this.numbers
      .filter((number) => numbers.includes(number.e164))
      .sort((a, b) => a.e164.localeCompare(b.e164))
      .map((number) => ({
        e164: number.e164,
        kind: number.kind,
        partnerName: this.partnerNames.get(number.partnerId) ?? number.partnerId,
      }));
  }

  async add(partnerId: string, kind: NumberKind, numbers: readonly string[], now: Date): Promise<boolean> {
    if ((await this.findTaken(numbers)).length > 0) return false;
    for (const e164 of numbers) {
      this.numbers.push({
        partnerId,
        e164,
        kind,
        addedAt: now,
        heldUntil: null,
        freeSince: kind === 'static' ? now : null,
      });
    }
    return true;
  }

  async list(partnerId: string): Promise<TrackingNumber[]> {
    return this.numbers
      .filter((number) => number.partnerId === partnerId)
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.e164.localeCompare(b.e164))
      .map(({ e164, kind, addedAt, heldUntil, freeSince }) => ({
        e164,
        kind,
        addedAt,
        heldUntil,
        freeSince,
        // The fake does not know sources; a static number without free_since is in use by someone.
        usedBySourceId: null,
      }));
  }

  async poolNumbers(partnerId: string): Promise<string[]> {
    return (await this.list(partnerId))
      .filter((number) => number.kind === 'pool')
      .map((number) => number.e164);
  }

  async claimStaticNumber(partnerId: string, now: Date): Promise<string | null> {
    const candidates = this.numbers
      .filter(
        (number) =>
          number.partnerId === partnerId &&
          number.kind === 'static' &&
          number.freeSince !== null &&
          number.freeSince <= now &&
          (number.heldUntil === null || number.heldUntil <= now),
      )
      .sort((a, b) => a.freeSince!.getTime() - b.freeSince!.getTime());
    const chosen = candidates[0];
    if (chosen === undefined) return null;
    chosen.freeSince = null;
    chosen.heldUntil = null;
    return chosen.e164;
  }

  async holdBack(partnerId: string, e164: string, until: Date): Promise<void> {
    const number = this.numbers.find(
      (candidate) => candidate.partnerId === partnerId && candidate.e164 === e164,
    );
    if (number !== undefined) {
      number.heldUntil = until;
      number.freeSince = until;
    }
  }
}
