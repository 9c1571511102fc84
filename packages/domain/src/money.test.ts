import fc from 'fast-check';
import { ValidationError } from './errors';
import { fromMinorUnits, MAX_MONEY, parseMoney, sumMoney, toMinorUnits } from './money';

describe('parseMoney', () => {
  it.each([
    ['12.50', '12.50'],
    ['12.5', '12.50'],
    ['12', '12.00'],
    ['0', '0.00'],
    ['0.01', '0.01'],
    ['007.10', '7.10'],
    ['9999999999.99', '9999999999.99'],
    ['00009999999999.99', '9999999999.99'],
  ])('reads %p as %s', (input, expected) => {
    expect(parseMoney('cost_per_lead', input)).toBe(expected);
  });

  it.each([
    ['12.505'],
    ['-1.00'],
    ['+1.00'],
    ['1e3'],
    ['1.'],
    ['.50'],
    ['1,50'],
    [' 1.50'],
    [''],
    ['NaN'],
    ['1000000000000000.00'],
    [12.5],
    [12],
    [null],
    [undefined],
  ])('rejects %p', (value) => {
    expect(() => parseMoney('cost_per_lead', value)).toThrow(
      new ValidationError('cost_per_lead', 'must be a non-negative decimal with at most two decimals'),
    );
  });

  // The bound is the call record's commission column, numeric(12,2): every accepted price can be stored.
  it.each([['10000000000'], ['99999999999.99'], ['999999999999999.99']])(
    'rejects %p as too large',
    (value) => {
      expect(() => parseMoney('cost_per_lead', value)).toThrow(
        new ValidationError('cost_per_lead', `must be at most ${MAX_MONEY}`),
      );
    },
  );
});

describe('minor units', () => {
  it('converts both ways exactly', () => {
    expect(toMinorUnits('12.50')).toBe(1250n);
    expect(toMinorUnits('0.07')).toBe(7n);
    expect(toMinorUnits('-3.05')).toBe(-305n);
    expect(fromMinorUnits(1250n)).toBe('12.50');
    expect(fromMinorUnits(7n)).toBe('0.07');
    expect(fromMinorUnits(0n)).toBe('0.00');
    expect(fromMinorUnits(-305n)).toBe('-3.05');
    expect(fromMinorUnits(12345678901234567890n)).toBe('123456789012345678.90');
  });

  it.each([['12.5'], ['12'], ['012.50'], ['1e2'], ['abc']])('toMinorUnits refuses %p', (amount) => {
    expect(() => toMinorUnits(amount)).toThrow(RangeError);
  });

  it('round-trips any amount', () => {
    fc.assert(fc.property(fc.bigInt(), (minor) => toMinorUnits(fromMinorUnits(minor)) === minor));
  });

  it('sums without float error', () => {
    expect(sumMoney(['0.10', '0.20'])).toBe('0.30');
    expect(sumMoney(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
    expect(sumMoney([])).toBe('0.00');
  });

  it('parseMoney output is canonical', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }), (minor) => {
        const text = fromMinorUnits(minor);
        expect(parseMoney('m', text)).toBe(text);
        expect(toMinorUnits(parseMoney('m', text))).toBe(minor);
      }),
    );
  });
});
