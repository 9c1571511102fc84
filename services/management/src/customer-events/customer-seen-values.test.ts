import { customerSeenValues, custnrProblem } from './customer-seen-values';

const base = { advId: 'acme', custnr: 'K-1', at: 0 };

describe('customerSeenValues', () => {
  it('takes a valid name and e-mail, trimmed', () => {
    expect(customerSeenValues({ ...base, custname: ' Kari AS ', custemail: 'kari@example.no ' })).toEqual({
      seen: { name: 'Kari AS', email: 'kari@example.no' },
      rejected: [],
    });
  });

  it('leaves out what was not sent or is blank, so the stored values stay', () => {
    expect(customerSeenValues(base)).toEqual({ seen: {}, rejected: [] });
    expect(customerSeenValues({ ...base, custname: '  ', custemail: '' })).toEqual({
      seen: {},
      rejected: [],
    });
  });

  it('stores the valid value and reports the invalid one', () => {
    expect(customerSeenValues({ ...base, custname: 'Kari AS', custemail: 'not-an-address' })).toEqual({
      seen: { name: 'Kari AS' },
      rejected: ['custemail: must be a valid e-mail address'],
    });
    expect(customerSeenValues({ ...base, custname: 'x'.repeat(61), custemail: 'kari@example.no' })).toEqual({
      seen: { email: 'kari@example.no' },
      rejected: ['custname: must be at most 60 characters'],
    });
  });

  it('counts characters as the database does (code points)', () => {
    expect(customerSeenValues({ ...base, custname: '😀'.repeat(60) }).seen.name).toBe('😀'.repeat(60));
    const local = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(21)}`;
    expect(local).toHaveLength(150);
    expect(customerSeenValues({ ...base, custemail: `${local}x` }).rejected).toEqual([
      'custemail: must be at most 150 characters',
    ]);
  });
});

describe('custnrProblem', () => {
  it('accepts what the customers table holds and names what it cannot', () => {
    expect(custnrProblem('K-1')).toBeUndefined();
    expect(custnrProblem('9'.repeat(45))).toBeUndefined();
    expect(custnrProblem('9'.repeat(46))).toBe('custnr: must be at most 45 characters');
    expect(custnrProblem(' ')).toBe('custnr: must not be empty');
  });
});
