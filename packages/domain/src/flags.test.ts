import fc from 'fast-check';
import { ValidationError } from './errors';
import { parseFlag, renderFlag } from './flags';

describe('parseFlag', () => {
  it('accepts exactly "0" and "1"', () => {
    expect(parseFlag('vm_divert_all', '1')).toBe(true);
    expect(parseFlag('vm_divert_all', '0')).toBe(false);
  });

  it.each([
    [0],
    [1],
    [true],
    [false],
    ['true'],
    ['false'],
    [' 1'],
    ['1 '],
    [''],
    ['01'],
    ['yes'],
    [null],
    [undefined],
    [{}],
    [['1']],
  ])('rejects %p naming the field and rule', (value) => {
    expect(() => parseFlag('vm_divert_all', value)).toThrow(ValidationError);
    expect(() => parseFlag('vm_divert_all', value)).toThrow('vm_divert_all: must be "0" or "1"');
  });

  it('rejects every string other than "0" and "1"', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => s !== '0' && s !== '1'),
        (s) => {
          expect(() => parseFlag('f', s)).toThrow(ValidationError);
        },
      ),
    );
  });
});

describe('renderFlag', () => {
  it('renders booleans as strings', () => {
    expect(renderFlag(true)).toBe('1');
    expect(renderFlag(false)).toBe('0');
  });

  it('round-trips through parseFlag', () => {
    fc.assert(fc.property(fc.boolean(), (b) => parseFlag('f', renderFlag(b)) === b));
  });
});
