import {
  formatNationalDisplay,
  isTracklineError,
  normalizePhoneNumber,
  type CountryCode,
} from '@trackline/domain';
import { InvalidRequestError } from '../http/replacement-errors';

export const MAX_NUMBERS_PER_REQUEST = 20;

export interface NumberOnPage {
  /** As sent, trimmed: echoed back as number_on_page. */
  asSent: string;
  e164: string;
}

const CACHE_LIMIT = 10_000;
// A partner's pages show the same few answering numbers again and again; parsing with the full
// metadata costs tens of microseconds, so parsed numbers (and display forms) are remembered.
const parsedCache = new Map<string, string | null>();
const displayCache = new Map<string, string>();

/** `numbers` is one or more numbers separated by commas (SPEC §3), each a phone number in the partner's country. */
export function parseNumbersOnPage(numbers: string, country: CountryCode): NumberOnPage[] {
  const entries = numbers.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_NUMBERS_PER_REQUEST) {
    throw InvalidRequestError.invalid('numbers', `max ${MAX_NUMBERS_PER_REQUEST} numbers`);
  }
  return entries.map((asSent) => {
    const e164 = toE164(asSent, country);
    if (e164 === null) {
      throw InvalidRequestError.invalid(
        'numbers',
        `not a phone number in ${country}: ${JSON.stringify(asSent)}`,
      );
    }
    return { asSent, e164 };
  });
}

export function nationalDisplay(e164: string): string {
  let display = displayCache.get(e164);
  if (display === undefined) {
    display = formatNationalDisplay(e164);
    remember(displayCache, e164, display);
  }
  return display;
}

function toE164(input: string, country: CountryCode): string | null {
  const key = `${country}|${input}`;
  const cached = parsedCache.get(key);
  if (cached !== undefined) return cached;
  let e164: string | null;
  try {
    e164 = normalizePhoneNumber('numbers', input, country);
  } catch (error) {
    if (!isTracklineError(error)) throw error;
    e164 = null;
  }
  remember(parsedCache, key, e164);
  return e164;
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
