import { percentile, summarize } from './bench-stats';

describe('bench statistics', () => {
  it('takes the nearest rank', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 95)).toBe(10);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it('summarizes unsorted samples', () => {
    expect(summarize([30, 10, 20])).toEqual({ runs: 3, p50: 20, p95: 30, p99: 30, max: 30 });
  });
});
