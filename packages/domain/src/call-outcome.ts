import { ValidationError } from './errors';

/**
 * A call's outcome as the partner reports it afterwards (docs/conversions.md, Outcomes): its status
 * and, when it has one, its value in a currency. Amounts are decimal strings end to end.
 */
export const OUTCOME_STATUSES = ['lead', 'qualified', 'sale', 'not_a_lead'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** What a call record's outcome columns hold: numeric(18,4). */
const MAX_OUTCOME_DECIMALS = 4;
const MAX_WHOLE_DIGITS = 14;
const AMOUNT_INPUT = /^(\d+)(?:\.(\d+))?$/;

export function parseOutcomeStatus(field: string, value: unknown): OutcomeStatus {
  if (typeof value !== 'string' || !(OUTCOME_STATUSES as readonly string[]).includes(value))
    throw new ValidationError(field, `must be one of ${OUTCOME_STATUSES.join(', ')}`);
  return value as OutcomeStatus;
}

/**
 * A non-negative decimal string with at most four decimals and fourteen whole digits ("1500",
 * "1500.5", "0.1234"), in its canonical form (`canonicalAmount`). Signs, exponents and numbers
 * other than strings are refused: an amount never passes through a binary float.
 */
export function parseOutcomeAmount(field: string, value: unknown): string {
  const match = typeof value === 'string' ? AMOUNT_INPUT.exec(value) : null;
  const rule = `must be a non-negative decimal string with at most ${MAX_WHOLE_DIGITS} digits before the point and ${MAX_OUTCOME_DECIMALS} after it`;
  if (match === null) throw new ValidationError(field, rule);
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  if (whole.length > MAX_WHOLE_DIGITS || (match[2] ?? '').length > MAX_OUTCOME_DECIMALS)
    throw new ValidationError(field, rule);
  return canonicalAmount(`${whole}.${match[2] ?? ''}`);
}

/**
 * The one written form of an amount: at least two decimals, trailing zeros beyond them dropped
 * ("1500" and "1500.0000" → "1500.00", "0.1230" → "0.123"). Also reads the database's numeric text.
 */
export function canonicalAmount(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole === '' ? '0' : whole}.${trimmed}`;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 currency code, three capital letters the runtime's currency list knows ("NOK"). */
export function parseCurrencyCode(field: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value) || !CURRENCIES.has(value))
    throw new ValidationError(
      field,
      'must be an ISO 4217 currency code of three capital letters (for example NOK)',
    );
  return value;
}
