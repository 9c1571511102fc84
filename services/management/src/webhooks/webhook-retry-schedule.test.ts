import { loadManagementConfig } from '../config/management-config';
import { nextAttemptAt } from '../notifications/retry-policy';

// The retry schedule docs/webhooks.md promises, from the default configuration.
describe('webhook retry schedule with the default settings', () => {
  it('tries 30 times over 21 h 25 min 10 s, waits doubling from 10 s up to an hour', () => {
    const { webhooks } = loadManagementConfig({});
    expect({ maxAttempts: webhooks.maxAttempts, baseDelayMs: webhooks.baseDelayMs }).toEqual({
      maxAttempts: 30,
      baseDelayMs: 10_000,
    });
    const start = new Date('2026-03-02T10:00:00Z');
    const sinceFirst: number[] = [0];
    let at: Date | null = start;
    for (let attempts = 1; at !== null; attempts++) {
      at = nextAttemptAt(attempts, webhooks, at);
      if (at !== null) sinceFirst.push((at.getTime() - start.getTime()) / 1000);
    }
    expect(sinceFirst).toHaveLength(30);
    expect(sinceFirst.slice(0, 11)).toEqual([0, 10, 30, 70, 150, 310, 630, 1270, 2550, 5110, 8710]);
    expect(sinceFirst[29]).toBe(21 * 3600 + 25 * 60 + 10);
  });
});
