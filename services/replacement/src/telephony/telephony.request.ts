import { fieldLabel } from '@trackline/contracts';
import { isE164, parseCallTime, ValidationError } from '@trackline/domain';
import type { RouteCallInput } from './call-routing.service';

const KNOWN = new Set(['call_id', 'anum', 'bnum', 'at']);
const MAX_CALL_ID_LENGTH = 200;
const MAX_NUMBER_LENGTH = 64;

/** `{call_id, anum, bnum, at?}`; `at` defaults to `now`. */
export function parseRouteCallRequest(body: unknown, now: Date): RouteCallInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KNOWN.has(key)) throw new ValidationError(fieldLabel(key), 'is not a known field');
  }
  const callId = requiredString(record, 'call_id', MAX_CALL_ID_LENGTH);
  if (callId === '') throw new ValidationError('call_id', 'must not be empty');
  // A withheld caller id arrives empty or as a word such as "anonymous"; it is kept as sent.
  const anum = requiredString(record, 'anum', MAX_NUMBER_LENGTH);
  const bnum = toE164(requiredString(record, 'bnum', MAX_NUMBER_LENGTH));
  const at = record.at === undefined ? now : parseCallTime('at', record.at);
  return { callId, anum, bnum, at };
}

function requiredString(record: Record<string, unknown>, field: string, maxLength: number): string {
  const value = record[field];
  if (value === undefined) throw new ValidationError(field, 'is required');
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  if (value.length > maxLength) throw new ValidationError(field, `must be at most ${maxLength} characters`);
  return value;
}

// Switches send the dialled number as +E.164, 00-prefixed or as bare international digits.
function toE164(raw: string): string {
  const compact = raw.replace(/[\s\-().]/g, '');
  const e164 = compact.startsWith('+')
    ? compact
    : compact.startsWith('00')
      ? `+${compact.slice(2)}`
      : `+${compact}`;
  if (!isE164(e164)) throw new ValidationError('bnum', 'must be an international number (E.164)');
  return e164;
}
