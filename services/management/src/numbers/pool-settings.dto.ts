import { isCountryCode, parseFlag, ValidationError, type CountryCode } from '@trackline/domain';
import { parseShare } from '../partners/partner-settings.dto';
import { refuseUnknownFields } from '../validation/body-fields';
import { parseHoldBack, parseSessionLifetime } from '../partners/session-timing';
import { numberMonthlyPrice, type AutoscalingPolicy, type PoolSettings } from './pool-settings';

// PUT /number_pools (docs/pool-sizing.md): the fields sent change, the rest keep their value. A
// nullable setting sent as null or "" returns to its default (the partner's, or none).

/** At most this many numbers in one pool: a bound on what one evaluation may buy. */
export const MAX_POOL_SIZE = 10_000;
const MAX_MONEY = 10_000_000;

export const POOL_SETTINGS_FIELDS = [
  'session_lifetime_seconds',
  'hold_back_seconds',
  'autoscaling',
  'min',
  'max',
  'target_overflow',
  'max_monthly_cost',
  'number_monthly_price',
  'country',
  'area_code',
  'contains',
] as const;

export function applyPoolSettingsInput(current: PoolSettings, input: Record<string, unknown>): PoolSettings {
  refuseUnknownFields(input, POOL_SETTINGS_FIELDS);
  if (Object.keys(input).length === 0)
    throw new ValidationError('body', `send at least one of ${POOL_SETTINGS_FIELDS.join(', ')}`);
  const cleared = (name: string): boolean => input[name] === null || input[name] === '';
  const given = (name: string): boolean => input[name] !== undefined;
  const nullable = <T>(name: string, parse: (value: unknown) => T, keep: T | null): T | null =>
    !given(name) ? keep : cleared(name) ? null : parse(input[name]);

  const policy = current.autoscaling;
  const autoscaling: AutoscalingPolicy = {
    enabled: given('autoscaling') ? parseFlag('autoscaling', text(input.autoscaling)) : policy.enabled,
    min: given('min') ? (cleared('min') ? 0 : parseSize('min', input.min)) : policy.min,
    max: nullable('max', (value) => parseSize('max', value), policy.max),
    targetOverflow: nullable(
      'target_overflow',
      (value) => parseShare('target_overflow', text(value)),
      policy.targetOverflow,
    ),
    maxMonthlyCost: nullable(
      'max_monthly_cost',
      (value) => parseMonthlyAmount('max_monthly_cost', value, 2, 0),
      policy.maxMonthlyCost,
    ),
    numberMonthlyPrice: nullable(
      'number_monthly_price',
      (value) => parseMonthlyAmount('number_monthly_price', value, 4, 0.0001),
      policy.numberMonthlyPrice,
    ),
    country: nullable('country', parseCountry, policy.country),
    areaCode: nullable('area_code', parseAreaCode, policy.areaCode),
    contains: nullable('contains', parseContains, policy.contains),
  };
  checkPolicy(autoscaling);
  return {
    sessionLifetimeSeconds: nullable(
      'session_lifetime_seconds',
      (value) => parseSessionLifetime('session_lifetime_seconds', value),
      current.sessionLifetimeSeconds,
    ),
    holdBackSeconds: nullable(
      'hold_back_seconds',
      (value) => parseHoldBack('hold_back_seconds', value),
      current.holdBackSeconds,
    ),
    autoscaling,
  };
}

/** The rules between fields, checked on the settings as they will be stored. */
function checkPolicy(policy: AutoscalingPolicy): void {
  if (policy.max !== null && policy.max < policy.min)
    throw new ValidationError('max', `must be at least min (${policy.min})`);
  if (!policy.enabled) return;
  // Growing without a ceiling in numbers and in money is what this policy exists to prevent.
  if (policy.max === null) throw new ValidationError('max', 'is required while autoscaling is 1');
  if (policy.maxMonthlyCost === null)
    throw new ValidationError('max_monthly_cost', 'is required while autoscaling is 1');
  const price = numberMonthlyPrice(policy);
  if (policy.min * price > policy.maxMonthlyCost + 1e-9)
    throw new ValidationError(
      'max_monthly_cost',
      `must pay for min (${policy.min} numbers at ${price.toFixed(4)} a month = ${(policy.min * price).toFixed(2)})`,
    );
}

function text(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

function parseSize(field: string, value: unknown): number {
  const size = /^\d{1,5}$/.test(text(value)) ? Number(text(value)) : NaN;
  if (!(size >= 0 && size <= MAX_POOL_SIZE))
    throw new ValidationError(field, `must be a whole number of numbers from 0 to ${MAX_POOL_SIZE}`);
  return size;
}

/**
 * A budget figure for the autoscaler's arithmetic, not money the records carry (the domain's
 * `parseMoney`, two decimals as text): a carrier's price has up to four decimals.
 */
function parseMonthlyAmount(field: string, value: unknown, places: number, least: number): number {
  const pattern = new RegExp(`^\\d{1,8}(\\.\\d{1,${places}})?$`);
  const amount = pattern.test(text(value)) ? Number(text(value)) : NaN;
  if (!(amount >= least && amount <= MAX_MONEY))
    throw new ValidationError(
      field,
      `must be an amount from ${least} to ${MAX_MONEY} with up to ${places} decimal places`,
    );
  return amount;
}

function parseCountry(value: unknown): CountryCode {
  const code = text(value).toUpperCase();
  if (!isCountryCode(code)) throw new ValidationError('country', 'must be an ISO 3166 country code');
  return code;
}

function parseAreaCode(value: unknown): string {
  if (!/^\d{1,6}$/.test(text(value))) throw new ValidationError('area_code', 'must be 1 to 6 digits');
  return text(value);
}

/** Twilio's `Contains`: digits, letters standing for digits, and `*` for any one digit. */
function parseContains(value: unknown): string {
  if (!/^[0-9A-Za-z*]{2,16}$/.test(text(value)))
    throw new ValidationError('contains', 'must be 2 to 16 digits, letters or * (any one digit)');
  return text(value);
}
