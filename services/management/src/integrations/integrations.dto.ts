import {
  CONVERTING_STATUSES,
  DEFAULT_CALL_MIN_DURATION,
  type Ga4Integration,
  type GoogleAdsIntegration,
} from './integration';
import { parseFlag, ValidationError, type OutcomeStatus } from '@trackline/domain';
import { Flag, Parsed } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';

// Account ids as Google Ads shows them ("123-456-7890") or as digits.
const CUSTOMER_ID = /^(\d{3})-?(\d{3})-?(\d{4})$/;
const CONVERSION_ACTION_ID = /^[0-9]{1,20}$/;
const MEASUREMENT_ID = /^G-[A-Z0-9]{4,20}$/;
// Credentials as Google issues them: printable ASCII without spaces.
const CREDENTIAL = /^[\x21-\x7e]{1,500}$/;

function parseCustomerId(field: string, value: unknown): string {
  const match = typeof value === 'string' ? CUSTOMER_ID.exec(value) : null;
  if (match === null)
    throw new ValidationError(
      field,
      'must be a Google Ads customer id: 10 digits, dashes allowed (123-456-7890)',
    );
  return match.slice(1).join('');
}

function parseOptionalCustomerId(field: string, value: unknown): string | null {
  return value === '' ? null : parseCustomerId(field, value);
}

function parseActionId(field: string, value: unknown): string {
  if (typeof value !== 'string' || !CONVERSION_ACTION_ID.test(value))
    throw new ValidationError(field, 'must be the conversion action id: 1 to 20 digits');
  return value;
}

function parseCredential(field: string, value: unknown): string {
  if (typeof value !== 'string' || !CREDENTIAL.test(value))
    throw new ValidationError(field, 'must be 1 to 500 printable ASCII characters without spaces');
  return value;
}

function parseSeconds(field: string, value: unknown): number {
  if (typeof value !== 'string' || !/^[0-9]{1,5}$/.test(value) || Number(value) > 86_400)
    throw new ValidationError(field, 'must be whole seconds from 0 to 86400');
  return Number(value);
}

function parseStatuses(field: string, value: unknown): OutcomeStatus[] {
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  if (value.trim() === '') return [];
  const names = value.split(',').map((name) => name.trim());
  const rule = `must be empty or name statuses from ${CONVERTING_STATUSES.join(', ')}, separated by commas, none twice`;
  if (
    names.some((name) => !(CONVERTING_STATUSES as readonly string[]).includes(name)) ||
    new Set(names).size !== names.length
  )
    throw new ValidationError(field, rule);
  return CONVERTING_STATUSES.filter((status) => names.includes(status));
}

function parseState(field: string, value: unknown): boolean {
  if (value !== '0' && value !== '1')
    throw new ValidationError(field, 'must be "0" (active) or "1" (paused)');
  return value === '1';
}

function parseMeasurementId(field: string, value: unknown): string {
  if (typeof value !== 'string' || !MEASUREMENT_ID.test(value))
    throw new ValidationError(
      field,
      'must be a GA4 measurement id (G- and 4 to 20 capital letters or digits)',
    );
  return value;
}

class GoogleAdsDto {
  @Parsed('optional', (value) => parseState('state', value))
  state?: string;
  @Parsed('optional', (value) => parseCustomerId('customer_id', value))
  customer_id?: string;
  @Parsed('optional', (value) => parseOptionalCustomerId('login_customer_id', value))
  login_customer_id?: string;
  @Parsed('optional', (value) => parseActionId('conversion_action_id', value))
  conversion_action_id?: string;
  @Parsed('optional', (value) => (value === '' ? null : parseActionId('outcome_conversion_action_id', value)))
  outcome_conversion_action_id?: string;
  @Parsed('optional', (value) => parseSeconds('call_min_duration', value))
  call_min_duration?: string;
  @Parsed('optional', (value) => parseStatuses('outcome_statuses', value))
  outcome_statuses?: string;
  @Flag('optional')
  enhanced_conversions?: string;
  @Parsed('optional', (value) => parseCredential('oauth_client_id', value))
  oauth_client_id?: string;
  @Parsed('optional', (value) => parseCredential('oauth_client_secret', value))
  oauth_client_secret?: string;
  @Parsed('optional', (value) => parseCredential('refresh_token', value))
  refresh_token?: string;
  @Parsed('optional', (value) => parseCredential('developer_token', value))
  developer_token?: string;
}

class Ga4Dto {
  @Parsed('optional', (value) => parseState('state', value))
  state?: string;
  @Parsed('optional', (value) => parseMeasurementId('measurement_id', value))
  measurement_id?: string;
  @Parsed('optional', (value) => parseCredential('api_secret', value))
  api_secret?: string;
}

function required<T>(field: string, value: T | undefined): T {
  if (value === undefined)
    throw new ValidationError(field, 'is required (the integration is not set up yet)');
  return value;
}

/**
 * PUT /integrations/google_ads: keys left out keep their value; on the first PUT every required key
 * must be sent. Secrets are write-only: sent to change them, never shown back.
 */
export function parseGoogleAdsPut(
  body: Record<string, unknown>,
  current: GoogleAdsIntegration | null,
  now: Date,
): GoogleAdsIntegration {
  const dto = validateDto(GoogleAdsDto, body);
  const pick = <T>(
    sent: string | undefined,
    parse: (value: string) => T,
    kept: T | undefined,
  ): T | undefined => (sent === undefined ? kept : parse(sent));
  return {
    kind: 'google_ads',
    paused: pick(dto.state, (v) => parseState('state', v), current?.paused) ?? false,
    customerId: required(
      'customer_id',
      pick(dto.customer_id, (v) => parseCustomerId('', v), current?.customerId),
    ),
    loginCustomerId:
      pick(dto.login_customer_id, (v) => parseOptionalCustomerId('', v), current?.loginCustomerId) ?? null,
    conversionActionId: required(
      'conversion_action_id',
      pick(dto.conversion_action_id, (v) => v, current?.conversionActionId),
    ),
    outcomeConversionActionId:
      pick(
        dto.outcome_conversion_action_id,
        (v) => (v === '' ? null : v),
        current?.outcomeConversionActionId,
      ) ?? null,
    callMinDuration:
      pick(dto.call_min_duration, (v) => Number(v), current?.callMinDuration) ?? DEFAULT_CALL_MIN_DURATION,
    outcomeStatuses: pick(dto.outcome_statuses, (v) => parseStatuses('', v), current?.outcomeStatuses) ?? [
      ...CONVERTING_STATUSES,
    ],
    enhancedConversions:
      pick(dto.enhanced_conversions, (v) => parseFlag('', v), current?.enhancedConversions) ?? false,
    oauthClientId: required(
      'oauth_client_id',
      pick(dto.oauth_client_id, (v) => v, current?.oauthClientId),
    ),
    secrets: {
      oauthClientSecret: required(
        'oauth_client_secret',
        dto.oauth_client_secret ?? current?.secrets.oauthClientSecret,
      ),
      refreshToken: required('refresh_token', dto.refresh_token ?? current?.secrets.refreshToken),
      developerToken: required('developer_token', dto.developer_token ?? current?.secrets.developerToken),
    },
    modified: now,
  };
}

/** PUT /integrations/ga4, as for Google Ads. */
export function parseGa4Put(
  body: Record<string, unknown>,
  current: Ga4Integration | null,
  now: Date,
): Ga4Integration {
  const dto = validateDto(Ga4Dto, body);
  return {
    kind: 'ga4',
    paused: dto.state === undefined ? (current?.paused ?? false) : dto.state === '1',
    measurementId: required('measurement_id', dto.measurement_id ?? current?.measurementId),
    secrets: { apiSecret: required('api_secret', dto.api_secret ?? current?.secrets.apiSecret) },
    modified: now,
  };
}
