import { canonicalAmount, parseCurrencyCode, parseOutcomeAmount, parseOutcomeStatus } from './call-outcome';
import { ValidationError } from './errors';

describe('call outcomes', () => {
  it('accepts the four statuses only', () => {
    expect(parseOutcomeStatus('status', 'sale')).toBe('sale');
    for (const bad of ['Sale', 'won', '', 1, null])
      expect(() => parseOutcomeStatus('status', bad)).toThrow(ValidationError);
  });

  it.each([
    ['1500', '1500.00'],
    ['1500.5', '1500.50'],
    ['0.1234', '0.1234'],
    ['007.10', '7.10'],
    ['99999999999999.9999', '99999999999999.9999'],
  ])('reads the amount %j as %j', (input, canonical) => {
    expect(parseOutcomeAmount('value', input)).toBe(canonical);
  });

  it.each(['-1', '1.23456', '1e3', '1,5', '', '.5', '5.', '100000000000000', ' 1'])(
    'refuses the amount %j',
    (input) => {
      expect(() => parseOutcomeAmount('value', input)).toThrow(/non-negative decimal string/);
    },
  );

  it('refuses a number: amounts are strings', () => {
    expect(() => parseOutcomeAmount('value', 12.5)).toThrow(ValidationError);
  });

  it('writes the database numeric text in the canonical form', () => {
    expect(canonicalAmount('1500.0000')).toBe('1500.00');
    expect(canonicalAmount('0.1230')).toBe('0.123');
  });

  it('knows ISO 4217 codes', () => {
    expect(parseCurrencyCode('currency', 'NOK')).toBe('NOK');
    for (const bad of ['nok', 'XYZ', 'EURO', 'NO', 5])
      expect(() => parseCurrencyCode('currency', bad)).toThrow(/ISO 4217/);
  });
});
