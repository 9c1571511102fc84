import { nationalDisplay, parseNumbersOnPage } from './numbers-on-page';

describe('parseNumbersOnPage', () => {
  it('splits on commas, trims, and keeps each entry as sent', () => {
    expect(parseNumbersOnPage(' 22 33 44 55 ,+47 23456789,004791000001', 'NO')).toEqual([
      { asSent: '22 33 44 55', e164: '+4722334455' },
      { asSent: '+47 23456789', e164: '+4723456789' },
      { asSent: '004791000001', e164: '+4791000001' },
    ]);
  });

  it('refuses an entry that is not a phone number in the country', () => {
    expect(() => parseNumbersOnPage('22334455,call us', 'NO')).toThrow(
      'Invalid parameter: numbers (not a phone number in NO: "call us")',
    );
    expect(() => parseNumbersOnPage('22334455,', 'NO')).toThrow(
      'Invalid parameter: numbers (not a phone number in NO: "")',
    );
    expect(() => parseNumbersOnPage('123', 'NO')).toThrow(/not a phone number/);
    expect(() => parseNumbersOnPage(Array(21).fill('22334455').join(','), 'NO')).toThrow(
      'Invalid parameter: numbers (max 20 numbers)',
    );
  });

  it('shows numbers in the national format', () => {
    expect(nationalDisplay('+4722334455')).toBe('22 33 44 55');
    expect(nationalDisplay('+4722334455')).toBe('22 33 44 55');
  });
});
