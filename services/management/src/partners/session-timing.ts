import { HOLD_BACK_RANGE, SESSION_LIFETIME_RANGE } from '@trackline/contracts';
import { ValidationError } from '@trackline/domain';

// How long a pool number stays with a visitor session (docs/pool-sizing.md, Session lifetime and
// hold-back): the partner's defaults and a pool's overrides follow the same rules, whichever edge
// (partner API field or CLI option) names them.

/** Seconds a session keeps its numbers after its last request: 60–86,400. */
export function parseSessionLifetime(field: string, value: unknown): number {
  return parseWholeSeconds(field, value, SESSION_LIFETIME_RANGE);
}

/** Seconds a number stays with its last binding after the session ended: 0–86,400. */
export function parseHoldBack(field: string, value: unknown): number {
  return parseWholeSeconds(field, value, HOLD_BACK_RANGE);
}

/** A whole number of seconds, as a JSON number or as digits (the API's strings, a form field). */
function parseWholeSeconds(field: string, value: unknown, range: { min: number; max: number }): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const seconds = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= range.min && seconds <= range.max))
    throw new ValidationError(field, `must be whole seconds from ${range.min} to ${range.max}`);
  return seconds;
}
