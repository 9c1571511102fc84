import { isCountryCode, ValidationError, type CountryCode } from '@trackline/domain';
import { NUMBER_KINDS, type NumberKind } from '../numbers/tracking-number.entity';
import { parseFields, type FieldSchema } from '../validation/field-schema';

/** Numbers one buy may ask for; more is a second request. */
export const MAX_BUY_COUNT = 20;
/** Numbers a search lists at most (Twilio answers at most 30 local numbers a page). */
export const MAX_SEARCH_LIMIT = 30;
export const DEFAULT_SEARCH_LIMIT = 10;

/** What to look for at the carrier (docs/carrier-numbers.md, Buying). */
export interface NumberCriteria {
  country?: CountryCode;
  /** Digits (a NANP area code is three). */
  areaCode?: string;
  /** Twilio's pattern: 2 to 16 digits and `*` (any one digit). */
  contains?: string;
}

export interface BuyRequest extends NumberCriteria {
  count: number;
  kind: NumberKind;
}

export interface SearchRequest extends NumberCriteria {
  limit: number;
}

/** Checks a typed buy request (CarrierNumbers.buy's callers, the API and the CLI alike). */
export function checkBuyRequest(request: BuyRequest): BuyRequest {
  if (!Number.isInteger(request.count) || request.count < 1 || request.count > MAX_BUY_COUNT)
    throw new ValidationError('count', `must be a whole number from 1 to ${MAX_BUY_COUNT}`);
  parseKind(request.kind);
  checkCriteria(request);
  return request;
}

interface BuyInput {
  count: number;
  kind: NumberKind;
  country: CountryCode;
  areaCode: string;
  contains: string;
}

const BUY_SCHEMA: FieldSchema<BuyInput> = {
  count: {
    name: 'count',
    presence: 'optional',
    parse: (value) => wholeNumber('count', value, 1, MAX_BUY_COUNT),
  },
  kind: { name: 'kind', presence: 'optional', parse: parseKind },
  country: { name: 'country', presence: 'optional', parse: parseCountry },
  areaCode: { name: 'area_code', presence: 'optional', parse: parseAreaCode },
  contains: { name: 'contains', presence: 'optional', parse: parseContains },
};

/** POST /carrier_numbers and numbers:buy: `count` defaults to 1, `kind` to pool. */
export function parseBuyInput(input: Record<string, unknown>): BuyRequest {
  const sent = parseFields(BUY_SCHEMA, input, 'is not a known field');
  return {
    count: sent.count ?? 1,
    kind: sent.kind ?? 'pool',
    ...criteria(sent),
  };
}

interface SearchInput {
  country: CountryCode;
  areaCode: string;
  contains: string;
  limit: number;
}

const SEARCH_SCHEMA: FieldSchema<SearchInput> = {
  country: { name: 'country', presence: 'optional', parse: parseCountry },
  areaCode: { name: 'area_code', presence: 'optional', parse: parseAreaCode },
  contains: { name: 'contains', presence: 'optional', parse: parseContains },
  limit: {
    name: 'limit',
    presence: 'optional',
    parse: (value) => wholeNumber('limit', value, 1, MAX_SEARCH_LIMIT),
  },
};

/** GET /carrier_numbers/available's query. */
export function parseSearchInput(query: Record<string, string>): SearchRequest {
  const sent = parseFields(SEARCH_SCHEMA, query, 'is not a known query parameter');
  return { limit: sent.limit ?? DEFAULT_SEARCH_LIMIT, ...criteria(sent) };
}

function criteria(
  sent: Partial<{ country: CountryCode; areaCode: string; contains: string }>,
): NumberCriteria {
  return {
    ...(sent.country === undefined ? {} : { country: sent.country }),
    ...(sent.areaCode === undefined ? {} : { areaCode: sent.areaCode }),
    ...(sent.contains === undefined ? {} : { contains: sent.contains }),
  };
}

function checkCriteria(request: NumberCriteria): void {
  if (request.country !== undefined) parseCountry(request.country);
  if (request.areaCode !== undefined) parseAreaCode(request.areaCode);
  if (request.contains !== undefined) parseContains(request.contains);
}

function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[0-9]{1,3}$/.test(text) || Number(text) < min || Number(text) > max)
    throw new ValidationError(field, `must be a whole number from ${min} to ${max}`);
  return Number(text);
}

function parseKind(value: unknown): NumberKind {
  const kind = NUMBER_KINDS.find((candidate) => candidate === value);
  if (kind === undefined) throw new ValidationError('kind', `must be one of ${NUMBER_KINDS.join(', ')}`);
  return kind;
}

function parseCountry(value: unknown): CountryCode {
  if (typeof value !== 'string' || !isCountryCode(value))
    throw new ValidationError(
      'country',
      'must be a supported ISO 3166-1 alpha-2 country code in capitals (US)',
    );
  return value;
}

function parseAreaCode(value: unknown): string {
  if (typeof value !== 'string' || !/^[0-9]{1,6}$/.test(value))
    throw new ValidationError('area_code', 'must be 1 to 6 digits (a US or Canadian area code is 3)');
  return value;
}

function parseContains(value: unknown): string {
  if (typeof value !== 'string' || !/^[0-9*]{2,16}$/.test(value) || !/[0-9]/.test(value))
    throw new ValidationError(
      'contains',
      'must be 2 to 16 digits and * (any one digit), with at least one digit',
    );
  return value;
}
