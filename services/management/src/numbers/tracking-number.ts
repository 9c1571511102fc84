import type { NumberKind } from './tracking-number.entity';

/**
 * The hold-back of a closed source's number before it is handed out again (docs/numbers-and-sources.md,
 * Static numbers as destnr).
 */
export const HOLD_BACK_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export function holdBackEnd(closedAt: Date): Date {
  return new Date(closedAt.getTime() + HOLD_BACK_DAYS * DAY_MS);
}

/**
 * A number the partner released at its carrier stays out of that partner's inventory this long
 * (docs/carrier-numbers.md, Quarantine): callers who still have it must not reach the partner's
 * next use of it.
 */
export const QUARANTINE_DAYS = 90;

export function quarantineEnd(releasedAt: Date): Date {
  return new Date(releasedAt.getTime() + QUARANTINE_DAYS * DAY_MS);
}

/** A released number the partner may not add back before `until`. */
export interface QuarantinedNumber {
  e164: string;
  until: Date;
}

/** One inventory entry as numbers:list shows it. */
export interface TrackingNumber {
  e164: string;
  kind: NumberKind;
  addedAt: Date;
  heldUntil: Date | null;
  freeSince: Date | null;
  /** The open source whose destnr this is, or null. */
  usedBySourceId: string | null;
}

/** Where a number already in the inventory belongs (duplicates are refused naming these). */
export interface TakenNumber {
  e164: string;
  partnerName: string;
  kind: NumberKind;
}
