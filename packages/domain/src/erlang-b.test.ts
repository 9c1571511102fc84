import fc from 'fast-check';
import { erlangB, smallestServersFor } from './erlang-b';

describe('erlangB', () => {
  it('is 1 without servers and A/(1+A) with one', () => {
    expect(erlangB(0, 3)).toBe(1);
    expect(erlangB(1, 1)).toBe(0.5);
    expect(erlangB(2, 1)).toBeCloseTo(0.2, 12);
  });

  it('matches published table values', () => {
    // 2 erlangs on 5 servers: (2^5/5!) / Σ 2^k/k! = 4/109.
    expect(erlangB(5, 2)).toBeCloseTo(4 / 109, 12);
    expect(erlangB(10, 5)).toBeCloseTo(0.018385, 6);
    expect(erlangB(11, 5)).toBeCloseTo(0.008287, 6);
  });

  // Tiny probabilities underflow to 0 in binary floating point: strict only above that.
  it('falls as servers are added, for any positive load', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.double({ min: 0.01, max: 500, noNaN: true }),
        (n, a) => {
          const [fewer, more] = [erlangB(n, a), erlangB(n + 1, a)];
          if (fewer > 1e-290) expect(more).toBeLessThan(fewer);
          else expect(more).toBeLessThanOrEqual(fewer);
        },
      ),
    );
  });

  it('refuses a negative or fractional server count and a negative load', () => {
    expect(() => erlangB(-1, 1)).toThrow(RangeError);
    expect(() => erlangB(1.5, 1)).toThrow(RangeError);
    expect(() => erlangB(1, -1)).toThrow(RangeError);
  });
});

describe('smallestServersFor', () => {
  // The 1 % column of the Erlang B table: the load N servers carry at 1 % blocking.
  it.each([
    [4.46, 10],
    [12.03, 20],
    [37.9, 50],
    [5, 11],
  ])('carries %s erlangs at 1 %% blocking with %s servers', (load, servers) => {
    expect(smallestServersFor(load, 0.01)).toBe(servers);
  });

  it('is the smallest: one server fewer blocks more than the target', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 300, noNaN: true }),
        fc.double({ min: 0.001, max: 0.5, noNaN: true }),
        (a, target) => {
          const n = smallestServersFor(a, target);
          expect(erlangB(n, a)).toBeLessThanOrEqual(target);
          expect(erlangB(n - 1, a)).toBeGreaterThan(target);
        },
      ),
    );
  });

  it('is one server for no load (B(0) = 1 by definition), and refuses a target outside (0, 1]', () => {
    expect(smallestServersFor(0, 0.01)).toBe(1);
    expect(() => smallestServersFor(1, 0)).toThrow(RangeError);
    expect(() => smallestServersFor(1, 1.5)).toThrow(RangeError);
  });
});
