import { ValidationError } from './errors';
import { expectObjectWithKeys, parseJsonArray, requireKey } from './json-input';
import { parseMoney } from './money';
import { isInWindow, parseTimeWindow, renderTimeWindow } from './time-window';
import type { TimeWindow } from './time-window';

export interface PricingCondition {
  /** Decimal string with two decimals, e.g. "12.50". */
  costPerLead: string;
  /** A call must last strictly longer than this many seconds to be a lead. */
  minDuration: number;
  window: TimeWindow;
}

export interface CallForPricing {
  answered: boolean;
  durationSeconds: number;
  start: Date;
  /** Caller number, as stored (whole). */
  anum: string;
}

export interface CommissionMatch {
  conditionIndex: number;
  commission: string;
}

/** Type "0" (cost per lead) is the only pricing model type. */
export const PRICING_TYPE_CPL = '0';

const CONDITION_KEYS = ['cost_per_lead', 'min_duration', 'from_time', 'to_time', 'weekdays'] as const;
const MAX_CONDITIONS = 100;
const WHOLE_SECONDS_PATTERN = /^(0|[1-9]\d{0,9})$/;
const MAX_WHOLE_SECONDS = 9_999_999_999;

/** Whole non-negative seconds, sent as a number or a digit string (min_duration, unique_caller_time). */
export function parseWholeSeconds(field: string, value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_WHOLE_SECONDS)
    return value;
  if (typeof value === 'string' && WHOLE_SECONDS_PATTERN.test(value)) return Number(value);
  throw new ValidationError(field, 'must be a whole number of seconds, 0 or more');
}

export function parsePricingType(field: string, value: unknown): typeof PRICING_TYPE_CPL {
  if (value === PRICING_TYPE_CPL || value === 0) return PRICING_TYPE_CPL;
  throw new ValidationError(field, 'must be "0" (cost per lead)');
}

/** Conditions on create: a JSON array (or JSON text) of complete entries. */
export function parsePricingConditions(field: string, raw: unknown): PricingCondition[] {
  const entries = parseJsonArray(field, raw, MAX_CONDITIONS);
  if (entries.length === 0) throw new ValidationError(field, 'must hold at least one condition');
  return entries.map((entry, index) =>
    parseCondition(`${field}[${index}]`, expectObjectWithKeys(`${field}[${index}]`, entry, CONDITION_KEYS)),
  );
}

/**
 * PUT merges by position: in each sent entry, keys sent replace and keys left out keep their value;
 * existing entries beyond the sent array stay; entries beyond the existing ones must be complete.
 */
export function mergePricingConditions(
  existing: readonly PricingCondition[],
  patch: unknown,
  field = 'conditions',
): PricingCondition[] {
  const entries = parseJsonArray(field, patch, MAX_CONDITIONS);
  const merged = existing.map((condition) => condition);
  entries.forEach((entry, index) => {
    const prefix = `${field}[${index}]`;
    const sent = expectObjectWithKeys(prefix, entry, CONDITION_KEYS);
    const current = existing[index];
    const combined =
      current === undefined ? sent : { ...renderPricingCondition(current), ...definedOnly(sent) };
    merged[index] = parseCondition(prefix, combined);
  });
  return merged;
}

export function renderPricingCondition(condition: PricingCondition): {
  cost_per_lead: string;
  min_duration: string;
  from_time: string;
  to_time: string;
  weekdays: string;
} {
  // Keys in the seed's order (cost_per_lead, min_duration, from_time, to_time, weekdays); the
  // time window's own rendering puts weekdays first, as alt_numbers lists them.
  const { from_time, to_time, weekdays } = renderTimeWindow(condition.window);
  return {
    cost_per_lead: condition.costPerLead,
    min_duration: condition.minDuration.toString(),
    from_time,
    to_time,
    weekdays,
  };
}

/** What decides a call's commission, but for the caller's history. */
export interface CommissionTerms {
  conditions: readonly PricingCondition[];
  uniqueCallerSeconds: number;
  call: CallForPricing;
  timeZone: string;
  /** The campaign's state is active ("0"); paused and closed campaigns earn nothing. */
  campaignActive: boolean;
}

/**
 * The commission a call earns, or null: only an answered call on an active campaign, longer than a
 * condition's min_duration inside its window, earns. The unique-caller rule compares the caller's
 * nearest other lead in the campaign with this call's start: closer than uniqueCallerSeconds (either
 * side, so the outcome does not depend on the order calls are ingested) blocks the commission.
 */
export function matchCommission(
  args: CommissionTerms & { callerLastLeadAt: Date | null },
): CommissionMatch | null {
  const { conditions, uniqueCallerSeconds, call, timeZone, callerLastLeadAt, campaignActive } = args;
  if (!campaignActive || !call.answered) return null;
  if (isRepeatCaller(uniqueCallerSeconds, call.start, callerLastLeadAt)) return null;
  const conditionIndex = conditions.findIndex(
    (condition) =>
      call.durationSeconds > condition.minDuration && isInWindow(condition.window, call.start, timeZone),
  );
  if (conditionIndex === -1) return null;
  return { conditionIndex, commission: conditions[conditionIndex]!.costPerLead };
}

/**
 * True when the call earns unless the caller is a repeat one: only then must the caller's nearest lead
 * be looked up (under a lock on the caller, so two concurrent calls cannot both earn) before
 * matchCommission decides. Every other case matchCommission decides without it.
 */
export function needsCallerHistory(terms: CommissionTerms): boolean {
  return terms.uniqueCallerSeconds > 0 && matchCommission({ ...terms, callerLastLeadAt: null }) !== null;
}

/** A stored value that is not in the form its writer stores: a fault of the store, never of a client. */
export class StoredValueError extends Error {
  constructor(what: string, problem: string) {
    super(`stored ${what}: ${problem}`);
    this.name = 'StoredValueError';
  }
}

const STORED_MONEY = /^(0|[1-9]\d*)\.\d{2}$/;
const STORED_SECONDS = /^(0|[1-9]\d*)$/;

/**
 * Conditions as a pricing model stores them (renderPricingCondition's form), read back without the
 * input rules: a value accepted under an earlier rule still reads. Throws StoredValueError when the
 * stored value is not in that form.
 */
export function decodeStoredPricingConditions(stored: unknown): PricingCondition[] {
  if (!Array.isArray(stored)) throw new StoredValueError('pricing conditions', 'not an array');
  return stored.map((entry: unknown, index) => {
    const where = `pricing conditions[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new StoredValueError(where, 'not an object');
    const record = entry as Record<string, unknown>;
    const costPerLead = record.cost_per_lead;
    if (typeof costPerLead !== 'string' || !STORED_MONEY.test(costPerLead))
      throw new StoredValueError(where, 'cost_per_lead is not a two-decimal amount');
    const minDuration = record.min_duration;
    if (typeof minDuration !== 'string' || !STORED_SECONDS.test(minDuration))
      throw new StoredValueError(where, 'min_duration is not whole seconds');
    let window: TimeWindow;
    try {
      window = parseTimeWindow(where, {
        weekdays: record.weekdays,
        from_time: record.from_time,
        to_time: record.to_time,
      });
    } catch (error) {
      if (error instanceof ValidationError) throw new StoredValueError(where, error.message);
      throw error;
    }
    return { costPerLead, minDuration: Number(minDuration), window };
  });
}

function isRepeatCaller(uniqueCallerSeconds: number, start: Date, lastLeadAt: Date | null): boolean {
  if (lastLeadAt === null) return false;
  // With uniqueCallerSeconds 0 no distance is below the limit, which is how 0 turns the rule off.
  return Math.abs(start.getTime() - lastLeadAt.getTime()) < uniqueCallerSeconds * 1000;
}

function parseCondition(prefix: string, record: Record<string, unknown>): PricingCondition {
  return {
    costPerLead: parseMoney(`${prefix}.cost_per_lead`, requireKey(prefix, record, 'cost_per_lead')),
    minDuration: parseWholeSeconds(`${prefix}.min_duration`, requireKey(prefix, record, 'min_duration')),
    window: parseTimeWindow(prefix, {
      weekdays: requireKey(prefix, record, 'weekdays'),
      from_time: requireKey(prefix, record, 'from_time'),
      to_time: requireKey(prefix, record, 'to_time'),
    }),
  };
}

// A key sent as null or absent keeps the stored value; only real values replace.
function definedOnly(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined && value !== null),
  );
}
