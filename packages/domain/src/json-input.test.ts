import { ValidationError } from './errors';
import { expectObjectWithKeys, parseJsonArray, requireKey } from './json-input';

describe('parseJsonArray', () => {
  it('takes an array or JSON text holding one', () => {
    expect(parseJsonArray('conditions', [1, 2], 10)).toEqual([1, 2]);
    expect(parseJsonArray('conditions', '[{"a":1}]', 10)).toEqual([{ a: 1 }]);
  });

  it.each([['{"a":1}'], ['[1,'], [''], [{}], [null], [42]])('rejects %p', (raw) => {
    expect(() => parseJsonArray('conditions', raw, 10)).toThrow(
      new ValidationError('conditions', 'must be a JSON array'),
    );
  });

  it('enforces the length limit', () => {
    expect(parseJsonArray('c', [1, 2], 2)).toHaveLength(2);
    expect(() => parseJsonArray('c', [1, 2, 3], 2)).toThrow(
      new ValidationError('c', 'must not hold more than 2 entries'),
    );
  });
});

describe('expectObjectWithKeys', () => {
  it('passes objects whose keys are all allowed', () => {
    expect(expectObjectWithKeys('c[0]', { a: 1 }, ['a', 'b'])).toEqual({ a: 1 });
  });

  it('names the first unknown key', () => {
    expect(() => expectObjectWithKeys('c[0]', { a: 1, z: 2 }, ['a'])).toThrow(
      new ValidationError('c[0].z', 'is not an allowed field'),
    );
  });

  it.each([[null], [[]], ['x'], [1]])('rejects %p', (value) => {
    expect(() => expectObjectWithKeys('c[0]', value, ['a'])).toThrow(
      new ValidationError('c[0]', 'must be an object'),
    );
  });
});

describe('requireKey', () => {
  it('returns present values and refuses missing or null ones', () => {
    expect(requireKey('c[0]', { a: '' }, 'a')).toBe('');
    expect(() => requireKey('c[0]', {}, 'a')).toThrow(new ValidationError('c[0].a', 'is required'));
    expect(() => requireKey('c[0]', { a: null }, 'a')).toThrow(new ValidationError('c[0].a', 'is required'));
  });
});
