import { textProblem } from '@trackline/contracts';
import {
  parseCurrencyCode,
  parseOutcomeAmount,
  parseOutcomeStatus,
  ValidationError,
  type OutcomeStatus,
} from '@trackline/domain';
import type { CdrOutcome } from '../cdrs/cdr';
import { Parsed } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';

/** outcome_note varchar(1000). */
const OUTCOME_NOTE_MAX = 1000;

function parseNote(field: string, value: unknown): string | null {
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  if (value === '') return null;
  const problem = textProblem(value, OUTCOME_NOTE_MAX);
  if (problem !== undefined) throw new ValidationError(field, problem);
  return value;
}

class OutcomeDto {
  @Parsed('optional', (value) => parseOutcomeStatus('status', value))
  status?: string;

  /** "" clears the value (and the currency with it). */
  @Parsed('optional', (value) => (value === '' ? null : parseOutcomeAmount('value', value)))
  value?: string;

  @Parsed('optional', (value) => (value === '' ? null : parseCurrencyCode('currency', value)))
  currency?: string;

  @Parsed('optional', (value) => parseNote('note', value))
  note?: string;
}

/** What a PUT asks for, merged with what the record has: the outcome to store, without its time. */
type OutcomeValues = Omit<CdrOutcome, 'at'>;

/**
 * PUT /cdrs/:cdrId/outcome (docs/conversions.md, Outcomes): keys left out keep their value; a
 * record without an outcome needs `status`; a value needs its currency (and "" for `value` clears
 * both).
 */
export function parseOutcomePut(body: Record<string, unknown>, current: CdrOutcome | null): OutcomeValues {
  const dto = validateDto(OutcomeDto, body);
  const status: OutcomeStatus | undefined =
    dto.status === undefined ? current?.status : parseOutcomeStatus('status', dto.status);
  if (status === undefined) throw new ValidationError('status', 'is required (the call has no outcome yet)');
  const clearsValue = dto.value === '';
  const value = clearsValue
    ? null
    : dto.value === undefined
      ? (current?.value ?? null)
      : parseOutcomeAmount('value', dto.value);
  const sentCurrency =
    dto.currency === undefined || dto.currency === ''
      ? undefined
      : parseCurrencyCode('currency', dto.currency);
  const currency = value === null ? null : (sentCurrency ?? current?.currency ?? null);
  if (value !== null && currency === null) throw new ValidationError('currency', 'is required with a value');
  if (value === null && sentCurrency !== undefined)
    throw new ValidationError('value', 'is required with a currency');
  const note = dto.note === undefined ? (current?.note ?? null) : parseNote('note', dto.note);
  return { status, value, currency, note };
}

/** Whether a PUT changes nothing: then no event is raised and nothing is queued again. */
export function sameOutcome(current: CdrOutcome | null, next: OutcomeValues): boolean {
  return (
    current !== null &&
    current.status === next.status &&
    current.value === next.value &&
    current.currency === next.currency &&
    current.note === next.note
  );
}
