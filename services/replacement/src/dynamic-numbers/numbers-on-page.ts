import { formatNationalDisplay, readPhoneNumber, type CountryCode } from '@trackline/domain';
import { InvalidRequestError } from '../http/replacement-errors';

export const MAX_NUMBERS_PER_REQUEST = 20;

export interface NumberOnPage {
  /** As sent, trimmed: echoed back as number_on_page. */
  asSent: string;
  e164: string;
}

// Display forms are asked for the pool numbers the script hands out (and a kept page number), a set
// bounded by the number inventory. Pools hand numbers out least-recently-used first, so a cache
// smaller than a pool never hits (first-in-first-out eviction drops each number just before it
// comes round again) and every new session paid ~5 µs of libphonenumber formatting. Sized to hold
// a whole inventory: 100,000 short strings are a few MB.
const DISPLAY_CACHE_LIMIT = 100_000;
const displayCache = new Map<string, string>();

/**
 * `numbers` is one or more numbers separated by commas (docs/number-replacement.md, Requests), each a phone
 * number in the partner's country.
 */
export function parseNumbersOnPage(numbers: string, country: CountryCode): NumberOnPage[] {
  const entries = numbers.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_NUMBERS_PER_REQUEST) {
    throw InvalidRequestError.invalid('numbers', `max ${MAX_NUMBERS_PER_REQUEST} numbers`);
  }
  return entries.map((asSent) => {
    // readPhoneNumber remembers what it read: a partner's pages show the same few numbers again and again.
    const e164 = readPhoneNumber(asSent, country);
    if (e164 === undefined) {
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
    remember(displayCache, e164, display, DISPLAY_CACHE_LIMIT);
  }
  return display;
}

function remember<V>(cache: Map<string, V>, key: string, value: V, limit: number): void {
  if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
