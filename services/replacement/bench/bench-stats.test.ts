import { percentile, serverTimingMs } from './bench-stats';

describe('percentile', () => {
  it('takes the nearest rank of ascending values', () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBeNaN();
  });
});

describe('serverTimingMs', () => {
  it('reads the dur of the app metric', () => {
    expect(serverTimingMs('app;dur=1.25')).toBe(1.25);
    expect(serverTimingMs(['app;dur=3'])).toBe(3);
    expect(serverTimingMs('app;desc="x";dur=0.40')).toBe(0.4);
    expect(serverTimingMs('app')).toBeNull();
    expect(serverTimingMs(undefined)).toBeNull();
  });
});
