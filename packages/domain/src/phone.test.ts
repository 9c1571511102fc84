import fc from 'fast-check';
import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { ValidationError } from './errors';
import {
  expandNumberRange,
  formatNationalDisplay,
  isCountryCode,
  isE164,
  maskCallerNumber,
  maskNumbersInText,
  normalizePhoneNumber,
  phoneNumberSpellings,
  phoneNumberTypeName,
  readPhoneNumber,
} from './phone';

describe('normalizePhoneNumber', () => {
  it.each([
    ['22 33 44 55', '+4722334455'],
    ['22334455', '+4722334455'],
    ['+47 22 33 44 55', '+4722334455'],
    ['0047 22334455', '+4722334455'],
    ['+47-22-33-44-55', '+4722334455'],
    ['(22) 33 44 55', '+4722334455'],
    ['  91234567 ', '+4791234567'],
    ['800 12 345', '+4780012345'],
    ['+44 20 7946 0958', '+442079460958'],
    ['0046 8 123 456 78', '+46812345678'],
  ])('reads %p in Norway as %s', (input, expected) => {
    expect(normalizePhoneNumber('phonenr', input, 'NO')).toBe(expected);
  });

  it('reads national input in the given country', () => {
    expect(normalizePhoneNumber('phonenr', '08-123 456 78', 'SE')).toBe('+46812345678');
    expect(normalizePhoneNumber('phonenr', '020 7946 0958', 'GB')).toBe('+442079460958');
  });

  it.each([
    [''],
    ['   '],
    ['abc'],
    ['1234'],
    ['22 33 44 55 66'],
    ['Phone: 22334455'],
    ['tel:+4722334455'],
    ['22334455 ext 5'],
    ['+4722334455x12'],
    ['++4722334455'],
    ['+4759000000'],
    ['٢٢٣٣٤٤٥٥'],
    ['2'.repeat(60)],
    [`22334455${' '.repeat(40)}`],
  ])('rejects %p', (input) => {
    expect(() => normalizePhoneNumber('phonenr', input, 'NO')).toThrow(ValidationError);
    expect(() => normalizePhoneNumber('phonenr', input, 'NO')).toThrow('phonenr: must be a phone number');
  });

  it('rejects values that are not strings even when the caller lied about the type', () => {
    expect(() => normalizePhoneNumber('phonenr', 22334455 as unknown as string, 'NO')).toThrow(
      ValidationError,
    );
  });
});

describe('readPhoneNumber', () => {
  // The spellings switches and people use for one call's numbers: every edge reads them alike.
  it.each([
    ['004791100001'],
    ['4791100001'],
    ['+47 911 00001'],
    ['+4791100001 '],
    ['91100001'],
    ['911 00 001'],
  ])('reads %p in Norway as +4791100001', (input) => {
    expect(readPhoneNumber(input, 'NO')).toBe('+4791100001');
  });

  it.each([['004791100001'], ['4791100001'], ['+47 911 00001'], [' +4791100001 ']])(
    'reads the international %p without a country',
    (input) => {
      expect(readPhoneNumber(input, null)).toBe('+4791100001');
    },
  );

  it('reads national input only with a country', () => {
    expect(readPhoneNumber('91100001', null)).toBeUndefined();
  });

  it("reads a foreign caller's international digits without the plus", () => {
    expect(readPhoneNumber('46812345678', 'NO')).toBe('+46812345678');
  });

  it.each([['anonymous'], [''], ['1881'], ['12345'], ['+4759000000'], ['+47911000011']])(
    'reads %p as no number',
    (input) => {
      expect(readPhoneNumber(input, 'NO')).toBeUndefined();
      expect(readPhoneNumber(input, null)).toBeUndefined();
    },
  );

  it('answers a text asked again as the first time, per country, also after more texts than it keeps', () => {
    const asked = () => [
      readPhoneNumber('91100001', 'NO'),
      readPhoneNumber('91100001', null),
      readPhoneNumber('91100001', 'SE'),
      readPhoneNumber('0046812345678', null),
      readPhoneNumber('1881', 'NO'),
    ];
    const first = asked();
    expect(first).toEqual(['+4791100001', undefined, '+4691100001', '+46812345678', undefined]);
    expect(asked()).toEqual(first);
    for (let i = 0; i < 12_000; i++) readPhoneNumber(`+4791${String(i).padStart(6, '0')}`, null);
    expect(asked()).toEqual(first);
    expect(readPhoneNumber('+4791011999', null)).toBe('+4791011999');
  });
});

describe('phoneNumberSpellings', () => {
  it('lists the spellings of a number, longest first', () => {
    const spellings = phoneNumberSpellings('+4791234567');
    expect(spellings).toEqual(
      expect.arrayContaining([
        '+4791234567',
        '004791234567',
        '4791234567',
        '91234567',
        '91 23 45 67',
        '+47 91 23 45 67',
      ]),
    );
    expect(spellings.map((s) => s.length)).toEqual([...spellings.map((s) => s.length)].sort((a, b) => b - a));
    for (const spelling of spellings) expect(readPhoneNumber(spelling, 'NO')).toBe('+4791234567');
  });

  it('keeps the trunk prefix where the country has one', () => {
    expect(phoneNumberSpellings('+46812345678')).toEqual(expect.arrayContaining(['0812345678', '812345678']));
  });
});

describe('maskNumbersInText', () => {
  it('masks every number in a text, in any spelling, and leaves times alone', () => {
    expect(
      maskNumbersInText('Missed call from +4791234567 to 22 33 44 55 (Shop) at 2026-03-02 10:00:00 UTC.'),
    ).toBe('Missed call from +4791234xxx to 22 33 4x xx (Shop) at 2026-03-02 10:00:00 UTC.');
    expect(maskNumbersInText('from 004791234567, 91234567')).toBe('from 004791234xxx, 91234xxx');
  });
});

describe('maskCallerNumber', () => {
  it.each([
    ['+4791234567', '+4791234xxx'],
    ['anonymous', 'anonymxxx'],
    ['12', 'xx'],
  ])('%p shows as %p', (anum, masked) => {
    expect(maskCallerNumber(anum)).toBe(masked);
  });
});

describe('formatNationalDisplay', () => {
  it('formats in the number’s own country', () => {
    expect(formatNationalDisplay('+4722334455')).toBe('22 33 44 55');
    expect(formatNationalDisplay('+4791234567')).toBe('91 23 45 67');
    expect(formatNationalDisplay('+442079460958')).toBe('020 7946 0958');
  });

  it('returns input that is not E.164 unchanged', () => {
    expect(formatNationalDisplay('voicemail')).toBe('voicemail');
    expect(formatNationalDisplay('22334455')).toBe('22334455');
  });
});

// Valid Norwegian numbers: eight digits, the first from 2 to 9, as the numbering plan allows.
const norwegianE164 = fc
  .tuple(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 0, max: 9_999_999 }))
  .map(([first, rest]) => `+47${first}${rest.toString().padStart(7, '0')}`)
  .filter((e164) => isValidPhoneNumber(e164));

describe('round trip', () => {
  it('E.164 → national display → normalize gives the same E.164 for valid Norwegian numbers', () => {
    fc.assert(
      fc.property(norwegianE164, (e164) => {
        expect(normalizePhoneNumber('phonenr', formatNationalDisplay(e164), 'NO')).toBe(e164);
      }),
      { numRuns: 500 },
    );
  });

  it('normalising is idempotent', () => {
    fc.assert(
      fc.property(norwegianE164, (e164) => {
        expect(normalizePhoneNumber('phonenr', e164, 'NO')).toBe(e164);
        expect(normalizePhoneNumber('phonenr', e164, 'SE')).toBe(e164);
      }),
    );
  });
});

describe('phoneNumberTypeName', () => {
  it.each([
    ['+4791234567', 'mobile'],
    ['+4722334455', 'fixed_line'],
    ['+4780012345', 'toll_free'],
    ['+4781000000', 'shared_cost'],
    ['+12015550123', 'fixed_line_or_mobile'],
  ])('%s is %s', (e164, type) => {
    expect(phoneNumberTypeName(e164)).toBe(type);
  });

  it.each([['+4759000000'], ['not a number'], ['22334455'], ['']])('%p has no known type', (value) => {
    expect(phoneNumberTypeName(value)).toBeNull();
  });

  it('answers a number asked again as the first time, also after more numbers than it keeps', () => {
    const asked = () => ['+4791234567', '+4722334455', '+4759000000'].map(phoneNumberTypeName);
    const first = asked();
    expect(first).toEqual(['mobile', 'fixed_line', null]);
    expect(asked()).toEqual(first);
    for (let i = 0; i < 12_000; i++) phoneNumberTypeName(`+4722${String(i).padStart(6, '0')}`);
    expect(asked()).toEqual(first);
    expect(phoneNumberTypeName('+4722011999')).toBe('fixed_line');
  });
});

describe('isE164', () => {
  it.each([['+4722334455'], ['+12015550123'], ['+123456789012345']])('accepts %s', (v) => {
    expect(isE164(v)).toBe(true);
  });

  it.each([
    ['4722334455'],
    ['+0722334455'],
    ['+47 22334455'],
    ['+1234567890123456'],
    ['+'],
    ['+4'],
    [' +4722334455'],
  ])('rejects %p', (v) => {
    expect(isE164(v)).toBe(false);
  });
});

describe('isCountryCode', () => {
  it('knows supported ISO codes only', () => {
    expect(isCountryCode('NO')).toBe(true);
    expect(isCountryCode('SE')).toBe(true);
    expect(isCountryCode('no')).toBe(false);
    expect(isCountryCode('XX')).toBe(false);
    expect(isCountryCode('NOR')).toBe(false);
  });
});

describe('expandNumberRange', () => {
  it('returns a single number as itself', () => {
    expect(expandNumberRange('numbers', '+4791000001', 'NO')).toEqual(['+4791000001']);
    expect(expandNumberRange('numbers', ' +4791000001 ', 'NO')).toEqual(['+4791000001']);
  });

  it('expands an inclusive range', () => {
    const numbers = expandNumberRange('numbers', '+4791000001-+4791000010', 'NO');
    expect(numbers).toHaveLength(10);
    expect(numbers[0]).toBe('+4791000001');
    expect(numbers[9]).toBe('+4791000010');
    expect(numbers).toContain('+4791000005');
  });

  it('carries over digit boundaries', () => {
    expect(expandNumberRange('numbers', '+4791000098-+4791000101', 'NO')).toEqual([
      '+4791000098',
      '+4791000099',
      '+4791000100',
      '+4791000101',
    ]);
  });

  it('accepts a one-number range and exactly 10,000 numbers', () => {
    expect(expandNumberRange('numbers', '+4791000001-+4791000001', 'NO')).toEqual(['+4791000001']);
    expect(expandNumberRange('numbers', '+4791000000-+4791009999', 'NO')).toHaveLength(10_000);
  });

  it("reads each end in the partner's country, in any spelling", () => {
    expect(expandNumberRange('numbers', '91000001', 'NO')).toEqual(['+4791000001']);
    expect(expandNumberRange('numbers', '910 00 001-0047 91000003', 'NO')).toEqual([
      '+4791000001',
      '+4791000002',
      '+4791000003',
    ]);
    expect(expandNumberRange('numbers', '22-33-44-55', 'NO')).toEqual(['+4722334455']);
  });

  it.each([
    ['9100000', 'must be a phone number, or two phone numbers joined by "-"'],
    ['+4791000001-9', 'must be a phone number, or two phone numbers joined by "-"'],
    ['+4791000001-+4791000002-+4791000003', 'must be a phone number, or two phone numbers joined by "-"'],
    ['+4791000001-+47910000010', 'must be a phone number, or two phone numbers joined by "-"'],
    ['+4791000010-+4791000001', 'range start must not be after its end'],
    ['+4791000000-+4791010000', 'range must not hold more than 10000 numbers'],
    ['+4791000001-+4710000000', 'must be a phone number, or two phone numbers joined by "-"'],
  ])('rejects %p', (spec, rule) => {
    expect(() => expandNumberRange('numbers', spec, 'NO')).toThrow(new ValidationError('numbers', rule));
  });

  it('lists end - start + 1 consecutive numbers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 90_000_000, max: 99_990_000 }),
        fc.integer({ min: 0, max: 500 }),
        (start, span) => {
          const numbers = expandNumberRange('numbers', `+47${start}-+47${start + span}`, 'NO');
          expect(numbers).toHaveLength(span + 1);
          numbers.forEach((n, i) => expect(n).toBe(`+47${start + i}`));
        },
      ),
      { numRuns: 50 },
    );
  });
});
