import fc from 'fast-check';
import { ValidationError } from './errors';
import {
  matchCommission,
  needsCallerHistory,
  decodeStoredPricingConditions,
  StoredValueError,
  mergePricingConditions,
  parsePricingConditions,
  parsePricingType,
  parseWholeSeconds,
  renderPricingCondition,
} from './pricing';
import type { CallForPricing, PricingCondition } from './pricing';

const OSLO = 'Europe/Oslo';
const weekdayDaytime = {
  cost_per_lead: '12.50',
  min_duration: '30',
  from_time: '08:00',
  to_time: '16:00',
  weekdays: 'mon,tue,wed,thu,fri',
};
const sundayNight = {
  cost_per_lead: '20.00',
  min_duration: 10,
  from_time: '01:00',
  to_time: '04:00',
  weekdays: 'sun',
};
const conditions = parsePricingConditions('conditions', [weekdayDaytime, sundayNight]);

// Monday 2026-01-05, Oslo UTC+1: 08:00 local is 07:00Z.
const call = (overrides: Partial<CallForPricing> = {}): CallForPricing => ({
  answered: true,
  durationSeconds: 31,
  start: new Date('2026-01-05T07:00:00Z'),
  anum: '+4791234567',
  ...overrides,
});
const match = (c: CallForPricing, extra: Partial<Parameters<typeof matchCommission>[0]> = {}) =>
  matchCommission({
    conditions,
    uniqueCallerSeconds: 0,
    call: c,
    timeZone: OSLO,
    callerLastLeadAt: null,
    campaignActive: true,
    ...extra,
  });

describe('parsePricingConditions', () => {
  it('parses complete entries from JSON values or text', () => {
    expect(conditions).toEqual([
      {
        costPerLead: '12.50',
        minDuration: 30,
        window: { weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'], fromMinute: 480, toMinute: 960 },
      },
      { costPerLead: '20.00', minDuration: 10, window: { weekdays: ['sun'], fromMinute: 60, toMinute: 240 } },
    ]);
    expect(parsePricingConditions('conditions', JSON.stringify([weekdayDaytime]))).toEqual([conditions[0]]);
  });

  it('renders back to the wire form', () => {
    expect(renderPricingCondition(conditions[0]!)).toEqual(weekdayDaytime);
    expect(renderPricingCondition(conditions[1]!)).toEqual({ ...sundayNight, min_duration: '10' });
  });

  it('renders the keys in the seed order (toEqual ignores order, partners reading JSON or XML do not)', () => {
    expect(Object.keys(renderPricingCondition(conditions[0]!))).toEqual([
      'cost_per_lead',
      'min_duration',
      'from_time',
      'to_time',
      'weekdays',
    ]);
  });

  it.each([
    ['no conditions', [], 'conditions', 'must hold at least one condition'],
    [
      'a missing key',
      [{ ...weekdayDaytime, min_duration: undefined }],
      'conditions[0].min_duration',
      'is required',
    ],
    [
      'an unknown key',
      [weekdayDaytime, { ...sundayNight, price: '1' }],
      'conditions[1].price',
      'is not an allowed field',
    ],
    [
      'three decimals',
      [{ ...weekdayDaytime, cost_per_lead: '1.005' }],
      'conditions[0].cost_per_lead',
      'must be a non-negative decimal with at most two decimals',
    ],
    [
      'a fractional min_duration',
      [{ ...weekdayDaytime, min_duration: 1.5 }],
      'conditions[0].min_duration',
      'must be a whole number of seconds, 0 or more',
    ],
    [
      'a negative min_duration',
      [{ ...weekdayDaytime, min_duration: '-1' }],
      'conditions[0].min_duration',
      'must be a whole number of seconds, 0 or more',
    ],
    [
      'from after to',
      [{ ...weekdayDaytime, from_time: '16:00', to_time: '08:00' }],
      'conditions[0].to_time',
      'must be after from_time',
    ],
    [
      'bad weekdays',
      [{ ...weekdayDaytime, weekdays: 'mon,mon' }],
      'conditions[0].weekdays',
      'must not repeat mon',
    ],
  ])('rejects %s', (_label, raw, field, rule) => {
    expect(() => parsePricingConditions('conditions', raw)).toThrow(new ValidationError(field, rule));
  });

  it('allows overlapping conditions, since the first match wins', () => {
    expect(parsePricingConditions('conditions', [weekdayDaytime, weekdayDaytime])).toHaveLength(2);
  });
});

describe('parseWholeSeconds and parsePricingType', () => {
  it.each([
    [0, 0],
    ['0', 0],
    [45, 45],
    ['3600', 3600],
  ])('reads %p', (value, seconds) => {
    expect(parseWholeSeconds('unique_caller_time', value)).toBe(seconds);
  });

  it.each([[-1], [1.5], ['1.5'], ['01'], [' 1'], [''], ['1e3'], [Number.NaN], [null], [true]])(
    'rejects %p',
    (value) => {
      expect(() => parseWholeSeconds('unique_caller_time', value)).toThrow(
        new ValidationError('unique_caller_time', 'must be a whole number of seconds, 0 or more'),
      );
    },
  );

  it('knows only type 0', () => {
    expect(parsePricingType('type', '0')).toBe('0');
    expect(parsePricingType('type', 0)).toBe('0');
    expect(() => parsePricingType('type', '1')).toThrow(
      new ValidationError('type', 'must be "0" (cost per lead)'),
    );
  });
});

describe('mergePricingConditions', () => {
  it('replaces the keys sent and keeps the rest, by position', () => {
    const merged = mergePricingConditions(conditions, [{ cost_per_lead: '15' }]);
    expect(merged).toEqual([{ ...conditions[0], costPerLead: '15.00' }, conditions[1]]);
  });

  it('changes the second entry when the first is sent empty', () => {
    const merged = mergePricingConditions(conditions, '[{}, {"to_time": "24:00", "min_duration": "0"}]');
    expect(merged[0]).toEqual(conditions[0]);
    expect(merged[1]).toEqual({
      costPerLead: '20.00',
      minDuration: 0,
      window: { weekdays: ['sun'], fromMinute: 60, toMinute: 1440 },
    });
  });

  it('checks the merged window', () => {
    expect(() => mergePricingConditions(conditions, [{ from_time: '17:00' }])).toThrow(
      new ValidationError('conditions[0].to_time', 'must be after from_time'),
    );
  });

  it('appends complete entries and refuses incomplete new ones', () => {
    const merged = mergePricingConditions(conditions, [{}, {}, weekdayDaytime]);
    expect(merged).toHaveLength(3);
    expect(merged[2]).toEqual(conditions[0]);
    expect(() => mergePricingConditions(conditions, [{}, {}, { cost_per_lead: '1.00' }])).toThrow(
      new ValidationError('conditions[2].min_duration', 'is required'),
    );
  });

  it('rejects unknown keys and bad values in the patch', () => {
    expect(() => mergePricingConditions(conditions, [{ colour: 'red' }])).toThrow(
      new ValidationError('conditions[0].colour', 'is not an allowed field'),
    );
    expect(() => mergePricingConditions(conditions, [{}, { weekdays: 'someday' }])).toThrow(
      expect.objectContaining({ field: 'conditions[1].weekdays' }),
    );
  });

  it('does not change the existing array', () => {
    const before = structuredClone(conditions);
    mergePricingConditions(conditions, [{ cost_per_lead: '99.00' }]);
    expect(conditions).toEqual(before);
  });
});

describe('matchCommission', () => {
  it('pays the first matching condition', () => {
    expect(match(call())).toEqual({ conditionIndex: 0, commission: '12.50' });
  });

  it('needs a duration strictly greater than min_duration', () => {
    expect(match(call({ durationSeconds: 30 }))).toBeNull();
    expect(match(call({ durationSeconds: 31 }))).toEqual({ conditionIndex: 0, commission: '12.50' });
    expect(match(call({ durationSeconds: 0 }))).toBeNull();
  });

  it('needs an answered call', () => {
    expect(match(call({ answered: false, durationSeconds: 120 }))).toBeNull();
  });

  it('pays nothing for a paused or closed campaign', () => {
    expect(match(call(), { campaignActive: false })).toBeNull();
  });

  it('covers the window from its first minute up to, not including, its end', () => {
    expect(match(call({ start: new Date('2026-01-05T06:59:59Z') }))).toBeNull(); // 07:59:59 local
    expect(match(call({ start: new Date('2026-01-05T07:00:00Z') }))).not.toBeNull(); // 08:00 local, first minute
    expect(match(call({ start: new Date('2026-01-05T14:59:59Z') }))).not.toBeNull(); // 15:59:59 local, last minute
    expect(match(call({ start: new Date('2026-01-05T15:00:00Z') }))).toBeNull(); // 16:00 local, minute after
  });

  it('reads the window in the partner time zone', () => {
    // 07:30Z is 08:30 in Oslo but 07:30 in UTC.
    expect(match(call({ start: new Date('2026-01-05T07:30:00Z') }))).not.toBeNull();
    expect(match(call({ start: new Date('2026-01-05T07:30:00Z') }), { timeZone: 'UTC' })).toBeNull();
  });

  it('needs a listed weekday', () => {
    expect(match(call({ start: new Date('2026-01-10T10:00:00Z') }))).toBeNull(); // Saturday 11:00
  });

  it('falls through to a later condition with its own price and duration', () => {
    // Sunday 2026-01-04 02:00 Oslo.
    const sunday = call({ start: new Date('2026-01-04T01:00:00Z'), durationSeconds: 11 });
    expect(match(sunday)).toEqual({ conditionIndex: 1, commission: '20.00' });
    expect(match({ ...sunday, durationSeconds: 10 })).toBeNull();
  });

  it('prefers the earlier of two matching conditions', () => {
    const twoMatching = parsePricingConditions('conditions', [
      { ...weekdayDaytime, cost_per_lead: '1.00' },
      { ...weekdayDaytime, cost_per_lead: '2.00' },
    ]);
    expect(match(call(), { conditions: twoMatching })).toEqual({ conditionIndex: 0, commission: '1.00' });
    expect(match(call(), { conditions: [] })).toBeNull();
  });

  it('follows the Oslo clock across the spring change (2026-03-29)', () => {
    // Window sun 01:00–04:00 lasts two real hours that night: 00:00Z–01:00Z is 01:00–02:00 CET,
    // 01:00Z–02:00Z is 03:00–04:00 CEST.
    const at = (iso: string) => match(call({ start: new Date(iso), durationSeconds: 60 }));
    expect(at('2026-03-28T23:59:59Z')).toBeNull(); // 00:59:59 CET
    expect(at('2026-03-29T00:00:00Z')).toEqual({ conditionIndex: 1, commission: '20.00' }); // 01:00 CET
    expect(at('2026-03-29T01:59:59Z')).toEqual({ conditionIndex: 1, commission: '20.00' }); // 03:59:59 CEST
    expect(at('2026-03-29T02:00:00Z')).toBeNull(); // 04:00 CEST
  });

  it('follows the Oslo clock across the autumn change (2026-10-25)', () => {
    // Window sun 01:00–04:00 lasts four real hours: 23:00Z–03:00Z.
    const at = (iso: string) => match(call({ start: new Date(iso), durationSeconds: 60 }));
    expect(at('2026-10-24T22:59:59Z')).toBeNull(); // 00:59:59 CEST
    expect(at('2026-10-24T23:00:00Z')).not.toBeNull(); // 01:00 CEST
    expect(at('2026-10-25T00:30:00Z')).not.toBeNull(); // 02:30 CEST
    expect(at('2026-10-25T01:30:00Z')).not.toBeNull(); // 02:30 CET, the repeated hour
    expect(at('2026-10-25T02:59:59Z')).not.toBeNull(); // 03:59:59 CET
    expect(at('2026-10-25T03:00:00Z')).toBeNull(); // 04:00 CET
  });

  describe('unique caller rule', () => {
    const start = new Date('2026-01-05T09:00:00Z');
    const secondsBefore = (s: number) => new Date(start.getTime() - s * 1000);

    it('blocks a repeat caller inside unique_caller_time', () => {
      expect(
        match(call({ start }), { uniqueCallerSeconds: 3600, callerLastLeadAt: secondsBefore(3599) }),
      ).toBeNull();
      expect(
        match(call({ start }), { uniqueCallerSeconds: 3600, callerLastLeadAt: secondsBefore(0) }),
      ).toBeNull();
    });

    it('pays a repeat caller outside unique_caller_time', () => {
      expect(
        match(call({ start }), { uniqueCallerSeconds: 3600, callerLastLeadAt: secondsBefore(3600) }),
      ).not.toBeNull();
      expect(
        match(call({ start }), { uniqueCallerSeconds: 3600, callerLastLeadAt: secondsBefore(86_400) }),
      ).not.toBeNull();
    });

    it('pays a first-time caller and ignores history when the rule is off', () => {
      expect(match(call({ start }), { uniqueCallerSeconds: 3600, callerLastLeadAt: null })).not.toBeNull();
      expect(
        match(call({ start }), { uniqueCallerSeconds: 0, callerLastLeadAt: secondsBefore(1) }),
      ).not.toBeNull();
    });

    it('also blocks when the other lead was stored for a later call (out-of-order ingestion)', () => {
      expect(
        match(call({ start }), { uniqueCallerSeconds: 60, callerLastLeadAt: secondsBefore(-30) }),
      ).toBeNull();
    });
  });

  it('a commission is always the matched condition’s price, and only for answered calls over min_duration', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        (answered, durationSeconds, ms) => {
          const result = match(call({ answered, durationSeconds, start: new Date(ms) }));
          if (result === null) return;
          const condition: PricingCondition = conditions[result.conditionIndex]!;
          expect(answered).toBe(true);
          expect(durationSeconds).toBeGreaterThan(condition.minDuration);
          expect(result.commission).toBe(condition.costPerLead);
        },
      ),
    );
  });
});

describe('needsCallerHistory', () => {
  const terms = {
    conditions,
    uniqueCallerSeconds: 3600,
    call: call(),
    timeZone: OSLO,
    campaignActive: true,
  };

  it('asks for the caller’s leads only when the call earns but for the unique-caller rule', () => {
    expect(needsCallerHistory(terms)).toBe(true);
    expect(needsCallerHistory({ ...terms, uniqueCallerSeconds: 0 })).toBe(false);
    expect(needsCallerHistory({ ...terms, campaignActive: false })).toBe(false);
    expect(needsCallerHistory({ ...terms, call: call({ answered: false }) })).toBe(false);
    expect(needsCallerHistory({ ...terms, call: call({ durationSeconds: 1 }) })).toBe(false);
  });
});

describe('decodeStoredPricingConditions', () => {
  const stored = {
    cost_per_lead: '12.50',
    min_duration: '30',
    from_time: '08:00',
    to_time: '16:00',
    weekdays: 'mon,tue,wed,thu,fri',
  };

  it('reads what renderPricingCondition stores', () => {
    const parsed = parsePricingConditions('conditions', [stored]);
    expect(decodeStoredPricingConditions(parsed.map(renderPricingCondition))).toEqual(parsed);
  });

  it('reads a value stored under an earlier input rule (a price above today’s bound)', () => {
    expect(decodeStoredPricingConditions([{ ...stored, cost_per_lead: '99999999999.99' }])[0]).toMatchObject({
      costPerLead: '99999999999.99',
    });
  });

  it.each([
    [{}, 'not an array'],
    [[null], 'not an object'],
    [[{ ...stored, cost_per_lead: '12.5' }], 'cost_per_lead'],
    [[{ ...stored, min_duration: 30 }], 'min_duration'],
    [[{ ...stored, weekdays: 'funday' }], 'weekdays'],
  ])('refuses %j as a store fault, not as client input', (value, problem) => {
    expect(() => decodeStoredPricingConditions(value)).toThrow(StoredValueError);
    expect(() => decodeStoredPricingConditions(value)).toThrow(problem);
  });
});
