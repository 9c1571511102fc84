import { ANUM_RULE, CALL_ID_RULE, callIdProblem, readAnum } from '@trackline/contracts';
import {
  normalizePhoneNumber,
  parseCallTime,
  parseFlag,
  parseLocalDate,
  parseWholeSeconds,
  ValidationError,
} from '@trackline/domain';
import { Flag, Parsed, Present } from '../validation/field-rules';
import { checkPageParameter, parsePaging } from '../validation/paging';
import { validateDto } from '../validation/validate-dto';
import { isBigintId } from '../validation/record-id';

/** One call record as the switch sends it (docs/switch.md), checked and typed. */
export interface CdrInput {
  callId: string;
  anum: string;
  bnum: string;
  cnum: string | null;
  start: Date;
  durationSeconds: number;
  answered: boolean;
  voicemail: boolean;
  recording: Buffer | null;
}

export const MAX_CDR_BATCH = 1_000;
const MAX_DURATION_SECONDS = 2_147_483_647;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The body: one record or an array of 1..1,000. Records are parsed one by one later. */
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
export class CdrRecordDto {
  @Parsed('required', (value) => {
    if (typeof value !== 'string') throw new ValidationError('call_id', CALL_ID_RULE);
    const broken = callIdProblem(value);
    if (broken !== undefined) throw new ValidationError('call_id', broken);
  })
  call_id?: string;

  @Parsed('required', (value) => callerOf('anum', value))
  anum?: string;

  @Parsed('required', (value) => trackingNumberOf(value))
  bnum?: string;

  @Parsed('clearable', (value) => callerOf('cnum', value))
  cnum?: string | null;

  @Parsed('required', (value) => parseCallTime('start', value))
  start?: unknown;

  @Parsed('required', (value) => parseDuration(value))
  duration?: unknown;

  @Parsed('required', (value) => parseNumericFlag('answered', value))
  answered?: unknown;

  @Parsed('optional', (value) => parseNumericFlag('voicemail', value))
  voicemail?: unknown;

  @Parsed('clearable', recordingBase64)
  recording?: string | null;
}

export function parseCdrInput(raw: unknown): CdrInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ValidationError('record', 'must be a JSON object');
  const dto = validateDto(CdrRecordDto, raw as Record<string, unknown>, 'is not a call record field');
  return {
    callId: dto.call_id!,
    anum: callerOf('anum', dto.anum),
    bnum: trackingNumberOf(dto.bnum),
    cnum: dto.cnum === undefined || dto.cnum === null || dto.cnum === '' ? null : callerOf('cnum', dto.cnum),
    start: parseCallTime('start', dto.start),
    durationSeconds: parseDuration(dto.duration),
    answered: parseNumericFlag('answered', dto.answered),
    voicemail: dto.voicemail === undefined ? false : parseNumericFlag('voicemail', dto.voicemail),
    recording: recordingOf(dto.recording),
  };
}

// Checked by the DTO already: only decoded here, as a recording may be megabytes.
function recordingOf(value: string | null | undefined): Buffer | null {
  const compact = value === undefined || value === null ? '' : value.replace(/\r?\n/g, '');
  return compact === '' ? null : Buffer.from(compact, 'base64');
}

function parseDuration(value: unknown): number {
  const seconds = parseWholeSeconds('duration', value);
  if (seconds > MAX_DURATION_SECONDS)
    throw new ValidationError('duration', `must be at most ${MAX_DURATION_SECONDS} seconds`);
  return seconds;
}

// The partner is not known before the tracking number is read, so it is read without a country.
function trackingNumberOf(value: unknown): string {
  return normalizePhoneNumber('bnum', typeof value === 'string' ? value : '', null);
}

function callerOf(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError(field, ANUM_RULE);
  const read = readAnum(value);
  if ('problem' in read) throw new ValidationError(field, read.problem);
  return read.anum;
}

/** docs/switch.md, Common rules: flags arrive as 0/1 numbers or "0"/"1" strings. */
function parseNumericFlag(field: string, value: unknown): boolean {
  if (value === 1 || value === '1') return true;
  if (value === 0 || value === '0') return false;
  throw new ValidationError(field, 'must be 0 or 1 (number or string)');
}

/** The recording without its line breaks, checked as base64; "" when it holds nothing. */
function recordingBase64(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError('recording', 'must be a base64 string');
  const compact = value.replace(/\r?\n/g, '');
  // Buffer.from(…, 'base64') skips junk silently; only a strict check tells a truncated upload.
  if (compact !== '' && !BASE64_PATTERN.test(compact))
    throw new ValidationError('recording', 'must be valid base64');
  return compact;
}

/** GET /statistics/cdrs query (docs/cdrs.md). */
export interface CdrListQuery {
  customerId: string | null;
  custnr: string | null;
  fromDate: string | null;
  toDate: string | null;
  extended: boolean;
  page: number;
  pageSize: number;
}

/** An empty `customer_id` or `custnr` counts as left out; one of them is required. */
export class CdrListQueryDto {
  @Parsed('optional', (value) => {
    if (value !== '' && !(typeof value === 'string' && isBigintId(value)))
      throw new ValidationError('customer_id', 'must be a customer id (decimal digits)');
  })
  customer_id?: string;

  @Present('optional')
  custnr?: string;

  @Parsed('optional', checkPageParameter('page'))
  page?: string;

  @Parsed('optional', checkPageParameter('pagesize'))
  pagesize?: string;

  @Parsed('optional', (value) => parseLocalDate('from_date', value))
  from_date?: string;

  @Parsed('optional', (value) => parseLocalDate('to_date', value))
  to_date?: string;

  @Flag('optional')
  extended?: string;
}

export function parseCdrListQuery(query: Record<string, string>): CdrListQuery {
  const dto = validateDto(CdrListQueryDto, query, 'is not a known query parameter');
  const customerId = dto.customer_id === undefined || dto.customer_id === '' ? null : dto.customer_id;
  const custnr = dto.custnr === undefined || dto.custnr === '' ? null : dto.custnr;
  if (customerId === null && custnr === null)
    throw new ValidationError('customer_id', 'customer_id or custnr is required');
  const { page, pageSize } = parsePaging(dto);
  return {
    customerId,
    custnr,
    fromDate: dto.from_date === undefined ? null : parseLocalDate('from_date', dto.from_date),
    toDate: dto.to_date === undefined ? null : parseLocalDate('to_date', dto.to_date),
    extended: parseFlag('extended', dto.extended ?? '0'),
    page,
    pageSize,
  };
}
