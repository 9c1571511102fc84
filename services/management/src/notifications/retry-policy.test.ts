import { MAX_RETRY_DELAY_MS, nextAttemptAt } from './retry-policy';

const now = new Date('2026-01-01T00:00:00Z');
const delayAfter = (attempts: number, maxAttempts = 100): number | null =>
  nextAttemptAt(attempts, { maxAttempts, baseDelayMs: 1_000 }, now)?.getTime() ?? null;

describe('nextAttemptAt', () => {
  it('doubles the wait after each failure', () => {
    expect([1, 2, 3, 4].map((n) => (delayAfter(n) ?? 0) - now.getTime())).toEqual([
      1_000, 2_000, 4_000, 8_000,
    ]);
  });

  it('gives up after the last attempt', () => {
    expect(delayAfter(4, 5)).not.toBeNull();
    expect(delayAfter(5, 5)).toBeNull();
    expect(delayAfter(6, 5)).toBeNull();
  });

  it('never waits longer than the cap', () => {
    expect((delayAfter(60) ?? 0) - now.getTime()).toBe(MAX_RETRY_DELAY_MS);
  });
});
