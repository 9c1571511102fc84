import { compareDecimalIds } from './decimal-id';

describe('compareDecimalIds', () => {
  it('orders decimal ids as numbers', () => {
    expect(['10', '9', '100', '11', '9'].sort(compareDecimalIds)).toEqual(['9', '9', '10', '11', '100']);
    expect(compareDecimalIds('42', '42')).toBe(0);
    expect(compareDecimalIds('9223372036854775807', '9223372036854775806')).toBeGreaterThan(0);
  });
});
