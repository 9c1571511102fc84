import { ValidationError } from '@trackline/domain';

// The seeds' form, always UTC: "2026-01-05 10:00:00".
const SEED_FORM = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
// ISO 8601 with its offset stated; a time without an offset would be ambiguous.
const ISO_FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A call time as the switch sends it (SPEC §5): `YYYY-MM-DD HH:MM:SS` in UTC, or ISO 8601 with an offset. */
export function parseCallTime(field: string, value: unknown): Date {
  const rule = 'must be YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601 with an offset';
  if (typeof value !== 'string') throw new ValidationError(field, rule);
  const seed = SEED_FORM.exec(value);
  const iso = seed === null ? ISO_FORM.exec(value) : null;
  const parts = seed ?? iso;
  if (parts === null) throw new ValidationError(field, rule);
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((p) => Number(p ?? 0)) as [
    number, number, number, number, number, number,
  ]; // prettier-ignore
  // Date.UTC rolls 30 February over into March; a real calendar time survives the round trip.
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    wall.getUTCFullYear() !== year ||
    wall.getUTCMonth() !== month - 1 ||
    wall.getUTCDate() !== day ||
    wall.getUTCHours() !== hour ||
    wall.getUTCMinutes() !== minute ||
    wall.getUTCSeconds() !== second
  ) {
    throw new ValidationError(field, rule);
  }
  if (seed !== null) return wall;
  const offset = iso![7]!;
  const instant = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(instant.getTime()) || (offset !== 'Z' && Number(offset.slice(1, 3)) > 18)) {
    throw new ValidationError(field, rule);
  }
  return instant;
}
