import { callIdProblem, fieldLabel, readAnum } from '@trackline/contracts';
import { normalizePhoneNumber, parseCallTime, ValidationError } from '@trackline/domain';
import type { RouteCallInput } from './call-routing.service';

const KNOWN = new Set(['call_id', 'anum', 'bnum', 'at']);

/** `{call_id, anum, bnum, at?}`; `at` defaults to `now`. */
export function parseRouteCallRequest(body: unknown, now: Date): RouteCallInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KNOWN.has(key)) throw new ValidationError(fieldLabel(key), 'is not a known field');
  }
  // The call id and the caller are held to the rules management stores the record by, so a call
  // routed here can be recorded there (docs/cdrs.md, "What both services accept").
  const callId = requiredString(record, 'call_id');
  const callIdBroken = callIdProblem(callId);
  if (callIdBroken !== undefined) throw new ValidationError('call_id', callIdBroken);
  const anum = readAnum(requiredString(record, 'anum'));
  if ('problem' in anum) throw new ValidationError('anum', anum.problem);
  // The partner is not known before the tracking number is read, so it is read without a country;
  // the caller is read in the partner's country when routing has found it (docs/switch.md, "Numbers").
  const bnum = normalizePhoneNumber('bnum', requiredString(record, 'bnum'), null);
  const at = record.at === undefined ? now : parseCallTime('at', record.at);
  return { callId, anum: anum.anum, bnum, at };
}

function requiredString(record: Record<string, unknown>, field: string, maxLength?: number): string {
  const value = record[field];
  if (value === undefined) throw new ValidationError(field, 'is required');
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  if (maxLength !== undefined && value.length > maxLength)
    throw new ValidationError(field, `must be at most ${maxLength} characters`);
  return value;
}
