import fc from 'fast-check';
import { parseAltNumbers, selectAnsweringNumber, VOICEMAIL_TARGET } from './alt-numbers';
import type { AltNumberRule } from './alt-numbers';
import { ValidationError } from './errors';
import { WEEKDAYS } from './time-window';

const OSLO = 'Europe/Oslo';
const rule = (
  phonenr: string,
  weekdays: AltNumberRule['weekdays'],
  from: number,
  to: number,
  altKey = 'k',
): AltNumberRule => ({
  phonenr,
  weekdays,
  fromMinute: from,
  toMinute: to,
  altKey,
});

describe('selectAnsweringNumber', () => {
  const evening = rule('+4791111111', ['mon', 'tue', 'wed', 'thu', 'fri'], 17 * 60, 1440, 'evening');
  const night = rule(VOICEMAIL_TARGET, ['mon', 'tue', 'wed', 'thu', 'fri'], 0, 7 * 60, 'night');
  const rules = [evening, night];
  const source = '+4722334455';

  it('uses the source number outside every rule', () => {
    // Monday 2026-01-05 12:00 Oslo.
    expect(selectAnsweringNumber(rules, source, new Date('2026-01-05T11:00:00Z'), OSLO)).toEqual({
      target: source,
      rule: null,
    });
  });

  it('uses the matching rule, including the voicemail literal', () => {
    expect(selectAnsweringNumber(rules, source, new Date('2026-01-05T16:00:00Z'), OSLO)).toEqual({
      target: '+4791111111',
      rule: evening,
    });
    expect(selectAnsweringNumber(rules, source, new Date('2026-01-06T05:59:59Z'), OSLO)).toEqual({
      target: VOICEMAIL_TARGET,
      rule: night,
    });
    expect(selectAnsweringNumber(rules, source, new Date('2026-01-06T06:00:00Z'), OSLO).target).toBe(source);
  });

  it('switches at the rule boundary in local time across the spring change', () => {
    const sundayMorning = [rule('+4791111111', ['sun'], 0, 3 * 60)];
    // 2026-03-29 01:59 CET is inside; one second later it is 03:00 CEST, outside.
    expect(selectAnsweringNumber(sundayMorning, source, new Date('2026-03-29T00:59:59Z'), OSLO).target).toBe(
      '+4791111111',
    );
    expect(selectAnsweringNumber(sundayMorning, source, new Date('2026-03-29T01:00:00Z'), OSLO).target).toBe(
      source,
    );
  });

  it('takes the first matching rule when rules overlap', () => {
    const first = rule('+4791111111', ['mon'], 0, 1440, 'a');
    const second = rule('+4792222222', ['mon'], 0, 1440, 'b');
    expect(selectAnsweringNumber([first, second], source, new Date('2026-01-05T11:00:00Z'), OSLO).rule).toBe(
      first,
    );
  });

  it('always answers with the default or a rule that holds the instant', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.subarray([...WEEKDAYS], { minLength: 1 }),
            fc.integer({ min: 0, max: 1439 }),
            fc.integer({ min: 1, max: 1440 }),
          ),
          { maxLength: 5 },
        ),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        (specs, ms) => {
          const rs = specs.map(([days, a, b], i) =>
            rule(`+479100000${i}`, days, a, Math.max(a + 1, b), `k${i}`),
          );
          const result = selectAnsweringNumber(rs, source, new Date(ms), OSLO);
          if (result.rule === null) expect(result.target).toBe(source);
          else expect(result.target).toBe(result.rule.phonenr);
        },
      ),
    );
  });
});

describe('parseAltNumbers', () => {
  const entry = { phonenr: '91 11 11 11', weekdays: 'mon,tue', from_time: '17:00', to_time: '24:00' };

  it('normalises numbers, parses windows and keeps alt_key', () => {
    const parsed = parseAltNumbers(
      'alt_numbers',
      [
        entry,
        {
          phonenr: 'voicemail',
          weekdays: 'mon,tue',
          from_time: '00:00',
          to_time: '07:00',
          alt_key: 'night-1',
        },
      ],
      'NO',
    );
    expect(parsed).toEqual([
      { phonenr: '+4791111111', window: { weekdays: ['mon', 'tue'], fromMinute: 1020, toMinute: 1440 } },
      {
        phonenr: 'voicemail',
        window: { weekdays: ['mon', 'tue'], fromMinute: 0, toMinute: 420 },
        altKey: 'night-1',
      },
    ]);
  });

  it('accepts JSON text as sent in a form field, and an empty array', () => {
    expect(parseAltNumbers('alt_numbers', JSON.stringify([entry]), 'NO')).toHaveLength(1);
    expect(parseAltNumbers('alt_numbers', '[]', 'NO')).toEqual([]);
  });

  it('reads national numbers in the partner country', () => {
    expect(parseAltNumbers('alt_numbers', [{ ...entry, phonenr: '08-123 456 78' }], 'SE')[0]!.phonenr).toBe(
      '+46812345678',
    );
  });

  it.each([
    ['not JSON', '[{', 'alt_numbers', 'must be a JSON array'],
    ['an object', { ...entry }, 'alt_numbers', 'must be a JSON array'],
    ['a non-object entry', ['x'], 'alt_numbers[0]', 'must be an object'],
    ['an unknown key', [{ ...entry, foo: 1 }], 'alt_numbers[0].foo', 'is not an allowed field'],
    ['a missing phonenr', [{ ...entry, phonenr: undefined }], 'alt_numbers[0].phonenr', 'is required'],
    [
      'a bad phonenr',
      [entry, { ...entry, weekdays: 'wed', phonenr: 'voice mail' }],
      'alt_numbers[1].phonenr',
      'must be a phone number',
    ],
    [
      'a numeric phonenr',
      [{ ...entry, phonenr: 91111111 }],
      'alt_numbers[0].phonenr',
      'must be a phone number or "voicemail"',
    ],
    ['missing weekdays', [{ ...entry, weekdays: undefined }], 'alt_numbers[0].weekdays', 'is required'],
    [
      'a bad to_time',
      [{ ...entry, to_time: '24:01' }],
      'alt_numbers[0].to_time',
      'must be HH:MM from 00:00 to 24:00',
    ],
    [
      'from after to',
      [{ ...entry, from_time: '18:00', to_time: '17:00' }],
      'alt_numbers[0].to_time',
      'must be after from_time',
    ],
    [
      'a bad alt_key',
      [{ ...entry, alt_key: 'a b' }],
      'alt_numbers[0].alt_key',
      'must be 1-64 letters, digits, "-" or "_"',
    ],
    [
      'a repeated alt_key',
      [
        { ...entry, alt_key: 'x' },
        { ...entry, weekdays: 'wed', alt_key: 'x' },
      ],
      'alt_numbers[1].alt_key',
      'repeats alt_numbers[0].alt_key',
    ],
  ])('rejects %s', (_label, raw, field, rule) => {
    expect(() => parseAltNumbers('alt_numbers', raw, 'NO')).toThrow(new ValidationError(field, rule));
    try {
      parseAltNumbers('alt_numbers', raw, 'NO');
    } catch (e) {
      expect((e as ValidationError).field).toBe(field);
    }
  });

  it('rejects rules overlapping on a weekday, naming the later one', () => {
    const raw = [
      entry,
      { ...entry, weekdays: 'wed' },
      { ...entry, weekdays: 'tue,wed', from_time: '23:00', to_time: '24:00' },
    ];
    expect(() => parseAltNumbers('alt_numbers', raw, 'NO')).toThrow(
      new ValidationError('alt_numbers[2]', 'overlaps alt_numbers[0]'),
    );
  });

  it('accepts rules that only touch or share no weekday', () => {
    const raw = [
      entry,
      { ...entry, from_time: '07:00', to_time: '17:00' },
      { ...entry, weekdays: 'wed,thu', from_time: '00:00', to_time: '24:00' },
    ];
    expect(parseAltNumbers('alt_numbers', raw, 'NO')).toHaveLength(3);
  });

  it('refuses more than 100 rules', () => {
    const many = Array.from({ length: 101 }, () => entry);
    expect(() => parseAltNumbers('alt_numbers', many, 'NO')).toThrow(
      new ValidationError('alt_numbers', 'must not hold more than 100 entries'),
    );
  });
});
