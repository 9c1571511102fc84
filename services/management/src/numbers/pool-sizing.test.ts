import { advisePoolSize } from './pool-sizing';

/**
 * Erlang B through its inverse, 1/B(n) = 1 + (n/A)·1/B(n−1), a different recurrence from the
 * service's, with the smallest N found by a plain search.
 */
function blockingByInverse(servers: number, load: number): number {
  let inverse = 1;
  for (let n = 1; n <= servers; n++) inverse = 1 + (n / load) * inverse;
  return 1 / inverse;
}

function smallestBySearch(load: number, target: number): number {
  let servers = 0;
  while (blockingByInverse(servers, load) > target) servers += 1;
  return servers;
}

describe('advisePoolSize', () => {
  it.each([
    // [λ (1/s), T (s), target]
    [12 / 3600, 2400, 0.01],
    [0.5, 2400, 0.01],
    [2, 1800, 0.001],
    [0.05, 600, 0.05],
    [10, 2400, 0.02],
  ])(
    'for λ=%p, T=%p, target=%p gives the smallest N an independent Erlang B accepts',
    (rate, hold, target) => {
      const advice = advisePoolSize({
        arrivalRate: rate,
        holdSeconds: hold,
        targetOverflow: target,
        currentSize: 5,
      });
      const load = rate * hold;
      expect(advice.offeredLoad).toBeCloseTo(load, 9);
      expect(advice.recommendedSize).toBe(smallestBySearch(load, target));
      expect(advice.blockingAtRecommended).toBeCloseTo(blockingByInverse(advice.recommendedSize, load), 12);
      expect(advice.blockingAtRecommended).toBeLessThanOrEqual(target);
      expect(blockingByInverse(advice.recommendedSize - 1, load)).toBeGreaterThan(target);
      expect(advice.blockingAtCurrent).toBeCloseTo(blockingByInverse(5, load), 12);
    },
  );

  it('matches published Erlang B table values', () => {
    // 1 % blocking: 5 erlangs need 11 lines, 10 erlangs 18, 20 erlangs 30.
    for (const [load, lines] of [
      [5, 11],
      [10, 18],
      [20, 30],
    ] as const) {
      expect(
        advisePoolSize({ arrivalRate: load, holdSeconds: 1, targetOverflow: 0.01, currentSize: 0 })
          .recommendedSize,
      ).toBe(lines);
    }
  });

  it('recommends one number without traffic and shows the inputs it used', () => {
    expect(
      advisePoolSize({ arrivalRate: 0, holdSeconds: 2400, targetOverflow: 0.01, currentSize: 4 }),
    ).toEqual({
      arrivalRate: 0,
      holdSeconds: 2400,
      targetOverflow: 0.01,
      currentSize: 4,
      offeredLoad: 0,
      recommendedSize: 1,
      blockingAtRecommended: 0,
      blockingAtCurrent: 0,
    });
  });
});
