import { ValidationError } from './errors';

// Amounts live as decimal strings with two decimals ("12.50") on the wire and in the database,
// and as bigint minor units (1250n) when summed. Binary floats never touch money.

const MONEY_INPUT_PATTERN = /^(\d{1,15})(?:\.(\d{1,2}))?$/;
const CANONICAL_MONEY_PATTERN = /^-?(0|[1-9]\d*)\.\d{2}$/;

/**
 * The largest amount accepted: what a call record's `commission` column, numeric(12,2), holds. A price
 * is accepted only when every call it prices can be stored (docs/cdrs.md, "What both services accept").
 */
export const MAX_MONEY = '9999999999.99';
const MAX_WHOLE_UNITS = 9_999_999_999n;

/**
 * Accepts "12", "12.5" and "12.50" (normalised to "12.50") up to MAX_MONEY; refuses signs, exponents
 * and a third decimal.
 */
export function parseMoney(field: string, value: unknown): string {
  const match = typeof value === 'string' ? MONEY_INPUT_PATTERN.exec(value) : null;
  if (match === null)
    throw new ValidationError(field, 'must be a non-negative decimal with at most two decimals');
  const whole = BigInt(match[1]!);
  if (whole > MAX_WHOLE_UNITS) throw new ValidationError(field, `must be at most ${MAX_MONEY}`);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return `${whole.toString()}.${fraction}`;
}

export function toMinorUnits(amount: string): bigint {
  if (!CANONICAL_MONEY_PATTERN.test(amount))
    throw new RangeError(`not a money amount with two decimals: ${amount}`);
  const negative = amount.startsWith('-');
  const digits = amount.replace('-', '').replace('.', '');
  const minor = BigInt(digits);
  return negative ? -minor : minor;
}

export function fromMinorUnits(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = abs / 100n;
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole.toString()}.${cents}`;
}

export function sumMoney(amounts: readonly string[]): string {
  return fromMinorUnits(amounts.reduce((total, amount) => total + toMinorUnits(amount), 0n));
}
