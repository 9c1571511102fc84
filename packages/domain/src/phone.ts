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

/** The one rule every edge words its refusal of a phone number with. */
export const PHONE_NUMBER_RULE = 'must be a phone number';

/**
 * The one identity of a phone number (docs/switch.md, "Numbers"): national
 * ("22 33 44 55"), international ("+47 22334455", "0047 22334455") or bare international digits
 * ("4722334455") become E.164; undefined when the input is not a valid number. `country` decides how
 * national input and the international dialling prefix are read. Without a country (a tracking
 * number read before its partner is known) only international forms are read: "+", "00" or the
 * country code's digits.
 */
export function readPhoneNumber(input: string, country: CountryCode | null): string | undefined {
  if (typeof input !== 'string' || input.length > MAX_PHONE_INPUT_LENGTH) return undefined;
  // The country (two letters or none) comes first, so no two questions share a key.
  return readings.answer(`${country ?? ''}\u0000${input}`, () => readUnremembered(input, country));
}

/**
 * The same few numbers are read again and again (a partner's tracking numbers on every call and on
 * its pages, its regular callers), and each of libphonenumber's parses costs tens of µs where a
 * lookup costs well under one. The answers are kept, up to a bound: past it they are dropped and
 * refilled (a cleared map costs less to keep bounded than any eviction order).
 */
class RememberedAnswers<T> {
  private readonly answers = new Map<string, T | null>();

  constructor(private readonly limit: number) {}

  answer(key: string, compute: () => T | undefined): T | undefined {
    const known = this.answers.get(key);
    if (known !== undefined) return known ?? undefined;
    const computed = compute();
    if (this.answers.size >= this.limit) this.answers.clear();
    this.answers.set(key, computed ?? null);
    return computed;
  }
}

const REMEMBERED_NUMBERS = 10_000;
const readings = new RememberedAnswers<string>(REMEMBERED_NUMBERS);

function readUnremembered(input: string, country: CountryCode | null): string | undefined {
  const trimmed = input.trim();
  const international =
    country !== null || trimmed.startsWith('+')
      ? trimmed
      : `+${trimmed.startsWith('00') ? trimmed.slice(2) : trimmed}`;
  const parsed = parseStrict(international, country)?.number;
  // Switches often send a foreign caller's international digits without the "+".
  if (parsed === undefined && country !== null && /^[1-9]\d{6,14}$/.test(trimmed))
    return parseStrict(`+${trimmed}`, null)?.number;
  return parsed;
}

/** readPhoneNumber, refusing what it cannot read as `<field>: must be a phone number`. */
export function normalizePhoneNumber(field: string, input: string, country: CountryCode | null): string {
  const e164 = readPhoneNumber(input, country);
  if (e164 === undefined) throw new ValidationError(field, PHONE_NUMBER_RULE);
  return e164;
}

/**
 * The spellings of one number people and switches write (E.164, with "00" or without the "+",
 * nationally with or without spaces, grouped internationally), longest first so a text can be
 * searched for the longer ones before their tails. For finding a number stored before every edge read
 * numbers one way.
 */
export function phoneNumberSpellings(e164: string): string[] {
  const parsed = isE164(e164) ? parsePhoneNumberFromString(e164, { extract: false }) : undefined;
  const spellings = new Set([e164, e164.slice(1), `00${e164.slice(1)}`]);
  if (parsed !== undefined) {
    const national = parsed.formatNational();
    const international = parsed.formatInternational();
    for (const spelling of [national, international, parsed.nationalNumber])
      for (const form of [spelling, spelling.replace(/[^0-9+]/g, '')]) spellings.add(form);
  }
  return [...spellings].filter((spelling) => spelling.length > 0).sort((a, b) => b.length - a.length);
}

/**
 * A caller's number as partners see it by default (docs/partner-api.md, Call records), and as the
 * service log writes it: the last three characters become "x".
 */
export function maskCallerNumber(anum: string): string {
  return anum.length <= 3 ? 'x'.repeat(anum.length) : `${anum.slice(0, -3)}xxx`;
}

// Six digits or more, perhaps grouped by single spaces: long enough to be a phone number, too long
// for the times and durations a notification's text also holds (dashes are left to dates).
const NUMBER_IN_TEXT = /\+?\d(?: ?\d){5,}/g;

/**
 * Text for the service log: every phone number in it masked as `maskCallerNumber` masks a caller's
 * ("Missed call from +4791234xxx"), in whatever spelling it was written.
 */
export function maskNumbersInText(text: string): string {
  return text.replace(NUMBER_IN_TEXT, (found) => {
    let hidden = 0;
    return [...found]
      .reverse()
      .map((character) => (/\d/.test(character) && hidden++ < 3 ? 'x' : character))
      .reverse()
      .join('');
  });
}

/** National format in the number's own country; input that is not a known number is shown as is. */
export function formatNationalDisplay(e164: string): string {
  if (!isE164(e164)) return e164;
  const parsed = parsePhoneNumberFromString(e164, { extract: false });
  return parsed === undefined ? e164 : parsed.formatNational();
}

/**
 * The number's type as the library knows it ('mobile', 'fixed_line', 'toll_free', …), or null. Every
 * call record asks it of its caller, so the answers are remembered as readPhoneNumber's are.
 */
export function phoneNumberTypeName(e164: string): string | null {
  if (!isE164(e164)) return null;
  return numberTypes.answer(e164, () => typeOf(e164)) ?? null;
}

const numberTypes = new RememberedAnswers<string>(REMEMBERED_NUMBERS);

function typeOf(e164: string): string | undefined {
  return parsePhoneNumberFromString(e164, { extract: false })?.getType()?.toLowerCase();
}

/**
 * Expands one number to itself and two numbers joined by "-" (`+4791000001-+4791000010`) to the
 * inclusive list; each end is read by readPhoneNumber in `country`, and so is every number of the
 * range, so the inventory holds only numbers every edge reads. Ranges are bounded so a typo cannot
 * insert millions of numbers.
 */
export function expandNumberRange(field: string, spec: string, country: CountryCode): string[] {
  const single = readPhoneNumber(spec, country);
  if (single !== undefined) return [single];
  const ends = rangeEnds(spec, country);
  if (ends === undefined) {
    throw new ValidationError(field, `${PHONE_NUMBER_RULE}, or two phone numbers joined by "-"`);
  }
  const [first, last] = ends;
  if (first.length !== last.length)
    throw new ValidationError(field, 'range ends must have the same number of digits');
  const start = BigInt(first.slice(1));
  const end = BigInt(last.slice(1));
  if (start > end) throw new ValidationError(field, 'range start must not be after its end');
  if (end - start + 1n > BigInt(MAX_RANGE_SIZE)) {
    throw new ValidationError(field, `range must not hold more than ${MAX_RANGE_SIZE} numbers`);
  }
  const numbers: string[] = [];
  for (let n = start; n <= end; n++) {
    const number = `+${n.toString()}`;
    if (readPhoneNumber(number, country) !== number)
      throw new ValidationError(field, `${number} in the range: ${PHONE_NUMBER_RULE}`);
    numbers.push(number);
  }
  return numbers;
}

// A "-" may also group digits ("22-33-44-55"), so the range is split at the one "-" whose two sides
// both read as numbers.
function rangeEnds(spec: string, country: CountryCode): [string, string] | undefined {
  for (let at = spec.indexOf('-'); at > 0; at = spec.indexOf('-', at + 1)) {
    const first = readPhoneNumber(spec.slice(0, at), country);
    const last = readPhoneNumber(spec.slice(at + 1), country);
    if (first !== undefined && last !== undefined) return [first, last];
  }
  return undefined;
}

function parseStrict(input: string, country: CountryCode | null): PhoneNumber | undefined {
  if (
    typeof input !== 'string' ||
    input.length > MAX_PHONE_INPUT_LENGTH ||
    !PHONE_INPUT_PATTERN.test(input)
  ) {
    return undefined;
  }
  const parsed = parsePhoneNumberFromString(input, {
    ...(country === null ? {} : { defaultCountry: country }),
    extract: false,
  });
  // An extension cannot be dialled as an E.164 number, so a number carrying one is not accepted.
  if (parsed === undefined || parsed.ext !== undefined || !parsed.isValid()) return undefined;
  return parsed;
}
