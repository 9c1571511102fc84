import { parseCallTime, parseWholeSeconds, ValidationError } from '@trackline/domain';
import { checkRecordInput } from '../http/request-input';
import { parseFields, type FieldSchema } from '../validation/field-schema';
import { callerOf, callIdOf, durationOf, trackingNumberOf, type CdrInput } from './cdr-input';

// The switch's JSON for POST /telephony/cdrs (docs/switch.md, docs/cdrs.md), read into CdrInput once.

const MAX_CDR_BATCH = 1_000;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The body: one record or an array of 1..1,000. Records are parsed one by one, each on its own. */
export function splitCdrBody(body: unknown): { records: unknown[]; batch: boolean } {
  if (Array.isArray(body)) {
    if (body.length === 0) throw new ValidationError('body', 'must hold at least one call record');
    if (body.length > MAX_CDR_BATCH)
      throw new ValidationError('body', `must hold at most ${MAX_CDR_BATCH} call records`);
    return { records: body, batch: true };
  }
  if (typeof body === 'object' && body !== null) return { records: [body], batch: false };
  throw new ValidationError('body', 'must be a call record object or an array of them');
}

/**
 * One call record of the switch. call_id, anum and bnum by the rules replacement routed the call by
 * (docs/cdrs.md, "What both services accept"): a call routed there is never refused here. bnum is
 * read in any international spelling; the callers are read in the partner's country once bnum has
 * named the partner (docs/switch.md, "Numbers").
 */
const SWITCH_CDR: FieldSchema<CdrInput> = {
  callId: { name: 'call_id', presence: 'required', parse: callIdOf },
  anum: { name: 'anum', presence: 'required', parse: (value) => callerOf('anum', value) },
  bnum: { name: 'bnum', presence: 'required', parse: trackingNumberOf },
  cnum: { name: 'cnum', presence: 'clearable', parse: (value) => callerOf('cnum', value) },
  start: { name: 'start', presence: 'required', parse: (value) => parseCallTime('start', value) },
  durationSeconds: {
    name: 'duration',
    presence: 'required',
    parse: (value) => durationOf(parseWholeSeconds('duration', value)),
  },
  answered: { name: 'answered', presence: 'required', parse: (value) => numericFlag('answered', value) },
  voicemail: { name: 'voicemail', presence: 'optional', parse: (value) => numericFlag('voicemail', value) },
  recording: { name: 'recording', presence: 'clearable', parse: recordingOf },
};

/** One record of the body; the edge's rules for names and nesting apply to it alone (docs/cdrs.md, "Batches"). */
export function parseSwitchCdr(raw: unknown): CdrInput {
  checkRecordInput(raw);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ValidationError('record', 'must be a JSON object');
  const fields = parseFields(SWITCH_CDR, raw as Record<string, unknown>, 'is not a call record field');
  return {
    callId: fields.callId!,
    anum: fields.anum!,
    bnum: fields.bnum!,
    cnum: fields.cnum ?? null,
    start: fields.start!,
    durationSeconds: fields.durationSeconds!,
    answered: fields.answered!,
    voicemail: fields.voicemail ?? false,
    recording: fields.recording ?? null,
  };
}

/** The call_id of a record that could not be read, for its entry in `errors`. */
export function sentCallId(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const callId = (raw as Record<string, unknown>).call_id;
  return typeof callId === 'string' ? callId : null;
}

/** docs/switch.md, Common rules: flags arrive as 0/1 numbers or "0"/"1" strings. */
function numericFlag(field: string, value: unknown): boolean {
  if (value === 1 || value === '1') return true;
  if (value === 0 || value === '0') return false;
  throw new ValidationError(field, 'must be 0 or 1 (number or string)');
}

/** Base64, line breaks allowed; "" (after the line breaks) holds no recording. */
function recordingOf(value: unknown): Buffer | null {
  if (typeof value !== 'string') throw new ValidationError('recording', 'must be a base64 string');
  const compact = value.replace(/\r?\n/g, '');
  // Buffer.from(…, 'base64') skips junk silently; only a strict check tells a truncated upload.
  if (compact !== '' && !BASE64_PATTERN.test(compact))
    throw new ValidationError('recording', 'must be valid base64');
  return compact === '' ? null : Buffer.from(compact, 'base64');
}
