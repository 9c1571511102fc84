import { ValidationError } from '@trackline/domain';
import { parseFields, type FieldSchema } from '../validation/field-schema';
import { DEFAULT_CARRIER_BASE_URL, type CarrierAccount } from './carrier-account';

const TWILIO_ACCOUNT_SID = /^AC[0-9a-f]{32}$/;
// SignalWire's Compatibility API takes the project id where Twilio takes the account SID.
const SIGNALWIRE_PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Credentials as carriers issue them: printable ASCII without spaces.
const AUTH_TOKEN = /^[\x21-\x7e]{1,200}$/;
const MAX_BASE_URL = 500;

interface CarrierAccountInput {
  accountSid: string;
  authToken: string;
  baseUrl: string;
}

const SCHEMA: FieldSchema<CarrierAccountInput> = {
  accountSid: { name: 'account_sid', presence: 'optional', parse: parseAccountSid },
  authToken: { name: 'auth_token', presence: 'optional', parse: parseAuthToken },
  baseUrl: { name: 'base_url', presence: 'optional', parse: parseBaseUrl },
};

/**
 * PUT /carrier_account and `carrier:set`: keys left out keep their value; the first PUT must send
 * `account_sid` and `auth_token` (`base_url` defaults to Twilio's). The token is write-only.
 */
export function parseCarrierAccountPut(
  body: Record<string, unknown>,
  current: CarrierAccount | null,
  now: Date,
): CarrierAccount {
  const sent = parseFields(SCHEMA, body, 'is not a known field');
  return {
    accountSid: required('account_sid', sent.accountSid ?? current?.accountSid),
    authToken: required('auth_token', sent.authToken ?? current?.authToken),
    baseUrl: sent.baseUrl ?? current?.baseUrl ?? DEFAULT_CARRIER_BASE_URL,
    modified: now,
  };
}

function required<T>(field: string, value: T | undefined): T {
  if (value === undefined) throw new ValidationError(field, 'is required (no carrier account is set up yet)');
  return value;
}

function parseAccountSid(value: unknown): string {
  if (typeof value !== 'string' || !(TWILIO_ACCOUNT_SID.test(value) || SIGNALWIRE_PROJECT_ID.test(value)))
    throw new ValidationError(
      'account_sid',
      'must match ^AC[0-9a-f]{32}$ (a Twilio account SID) or be a SignalWire project id (a lowercase UUID)',
    );
  return value;
}

function parseAuthToken(value: unknown): string {
  if (typeof value !== 'string' || !AUTH_TOKEN.test(value))
    throw new ValidationError('auth_token', 'must be 1 to 200 printable ASCII characters without spaces');
  return value;
}

/** An http(s) URL without credentials, query or fragment; a trailing slash is dropped. */
function parseBaseUrl(value: unknown): string {
  const rule = `must be an http:// or https:// URL of at most ${MAX_BASE_URL} characters, without user, query or fragment (${DEFAULT_CARRIER_BASE_URL})`;
  if (typeof value !== 'string' || value.length > MAX_BASE_URL) throw new ValidationError('base_url', rule);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError('base_url', rule);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '' ||
    value.includes('?') ||
    value.includes('#')
  )
    throw new ValidationError('base_url', rule);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
