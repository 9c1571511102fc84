import { ANUM_RULE, CALL_ID_RULE, callIdProblem, readAnum } from '@trackline/contracts';
import { normalizePhoneNumber, ValidationError } from '@trackline/domain';

/**
 * One call record to store, typed, from whichever producer: the switch's JSON (switch-cdr.dto.ts)
 * or a provider call assembled from its callbacks (telephony/twilio). Each producer builds its
 * values with the rules below, so ingestion never sees a value the record could not hold.
 */
export interface CdrInput {
  callId: string;
  /** As read by `callerOf`; read in the partner's country once `bnum` named the partner. */
  anum: string;
  /** E.164. */
  bnum: string;
  cnum: string | null;
  start: Date;
  durationSeconds: number;
  answered: boolean;
  voicemail: boolean;
  recording: Buffer | null;
}

const MAX_DURATION_SECONDS = 2_147_483_647;

/** The call id by the rule replacement routed the call by (docs/cdrs.md, "What both services accept"). */
export function callIdOf(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError('call_id', CALL_ID_RULE);
  const broken = callIdProblem(value);
  if (broken !== undefined) throw new ValidationError('call_id', broken);
  return value;
}

/** A caller (`anum`, `cnum`) as the switch or the provider saw it (docs/switch.md, "Numbers"). */
export function callerOf(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError(field, ANUM_RULE);
  const read = readAnum(value);
  if ('problem' in read) throw new ValidationError(field, read.problem);
  return read.anum;
}

// The partner is not known before the tracking number is read, so it is read without a country.
export function trackingNumberOf(value: unknown): string {
  return normalizePhoneNumber('bnum', typeof value === 'string' ? value : '', null);
}

/** Whole seconds as the record's column holds them. */
export function durationOf(seconds: number): number {
  if (seconds > MAX_DURATION_SECONDS)
    throw new ValidationError('duration', `must be at most ${MAX_DURATION_SECONDS} seconds`);
  return seconds;
}
