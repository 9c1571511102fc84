import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { ValidationError } from './errors';

export type { CountryCode } from 'libphonenumber-js/max';

// Characters people actually type around a phone number. Anything else (letters, "tel:", other
// scripts' digits) is refused before the library's lenient parser gets a chance to guess.
const PHONE_INPUT_PATTERN = /^[0-9+()\-./\s]+$/;
const MAX_PHONE_INPUT_LENGTH = 40;
const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
const MAX_RANGE_SIZE = 10_000;

export function isE164(value: string): boolean {
  return E164_PATTERN.test(value);
}

export function isCountryCode(value: string): value is CountryCode {
  return /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);
}

/**
 * Turns national ("22 33 44 55") or international ("+47 22334455", "0047 22334455") input into
 * E.164. `country` decides how national input and the international dialling prefix are read.
 */
export function normalizePhoneNumber(field: string, input: string, country: CountryCode): string {
  const parsed = parseStrict(input, country);
  if (parsed === undefined) throw new ValidationError(field, 'must be a phone number');
  return parsed.number;
}

/** National format in the number's own country; input that is not a known number is shown as is. */
export function formatNationalDisplay(e164: string): string {
  if (!isE164(e164)) return e164;
  const parsed = parsePhoneNumberFromString(e164, { extract: false });
  return parsed === undefined ? e164 : parsed.formatNational();
}

/** The number's type as the library knows it ('mobile', 'fixed_line', 'toll_free', …), or null. */
export function phoneNumberTypeName(e164: string): string | null {
  if (!isE164(e164)) return null;
  const type = parsePhoneNumberFromString(e164, { extract: false })?.getType();
  return type === undefined ? null : type.toLowerCase();
}

/**
 * Expands `+4791000001` to itself and `+4791000001-+4791000010` to the inclusive list. Ranges are
 * bounded so a typo cannot insert millions of numbers.
 */
export function expandNumberRange(field: string, spec: string): string[] {
  const parts = spec.trim().split('-');
  if (parts.length === 1 && isE164(parts[0]!)) return [parts[0]!];
  if (parts.length !== 2 || !parts.every(isE164)) {
    throw new ValidationError(field, 'must be an E.164 number or two E.164 numbers joined by "-"');
  }
  const [first, last] = parts as [string, string];
  if (first.length !== last.length)
    throw new ValidationError(field, 'range ends must have the same number of digits');
  const start = BigInt(first.slice(1));
  const end = BigInt(last.slice(1));
  if (start > end) throw new ValidationError(field, 'range start must not be after its end');
  if (end - start + 1n > BigInt(MAX_RANGE_SIZE)) {
    throw new ValidationError(field, `range must not hold more than ${MAX_RANGE_SIZE} numbers`);
  }
  const numbers: string[] = [];
  for (let n = start; n <= end; n++) numbers.push(`+${n.toString()}`);
  return numbers;
}

function parseStrict(input: string, country: CountryCode): PhoneNumber | undefined {
  if (
    typeof input !== 'string' ||
    input.length > MAX_PHONE_INPUT_LENGTH ||
    !PHONE_INPUT_PATTERN.test(input)
  ) {
    return undefined;
  }
  const parsed = parsePhoneNumberFromString(input, { defaultCountry: country, extract: false });
  // An extension cannot be dialled as an E.164 number, so a number carrying one is not accepted.
  if (parsed === undefined || parsed.ext !== undefined || !parsed.isValid()) return undefined;
  return parsed;
}
