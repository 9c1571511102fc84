import type { PoolRecommendation } from '../numbers/number-pools.service';
import { DEFAULT_AUTOSCALING, type AutoscalingPolicy } from '../numbers/pool-settings';
import { planResize, type PoolNumberUse } from './resize-plan';

const NOW = new Date('2026-11-29T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);

const POLICY: AutoscalingPolicy = {
  ...DEFAULT_AUTOSCALING,
  enabled: true,
  min: 2,
  max: 20,
  maxMonthlyCost: 100,
};

function recommending(size: number): PoolRecommendation {
  return {
    arrivalRate: 0.0167,
    holdSeconds: 2400,
    targetOverflow: 0.01,
    currentSize: 0,
    offeredLoad: 40,
    recommendedSize: size,
    blockingAtRecommended: 0.009,
    blockingAtCurrent: 1,
    sessionTtlSeconds: 1800,
    holdBackSeconds: 600,
  };
}

/** `count` numbers added 60 days ago, never called, unbound. */
function idlePool(count: number): PoolNumberUse[] {
  return Array.from({ length: count }, (_, index) => ({
    e164: `+1415555${String(index).padStart(4, '0')}`,
    bound: false,
    lastCallAt: null,
    addedAt: daysAgo(60),
  }));
}

describe('planResize', () => {
  it('grows to the recommendation when the caps allow it', () => {
    const plan = planResize({
      policy: POLICY,
      price: 1,
      recommendation: recommending(12),
      numbers: idlePool(5),
      now: NOW,
    });
    expect(plan).toMatchObject({ action: 'grow', fromSize: 5, targetSize: 12, addCount: 7, release: [] });
    expect(plan.reason).toContain('grow from 5 to 12');
  });

  it('stops at max', () => {
    const plan = planResize({
      policy: POLICY,
      price: 1,
      recommendation: recommending(53),
      numbers: idlePool(5),
      now: NOW,
    });
    expect(plan).toMatchObject({ action: 'grow', targetSize: 20, addCount: 15 });
    expect(plan.reason).toContain('capped at 20 by max');
  });

  it('stops at what max_monthly_cost pays for, to the cent', () => {
    const policy = { ...POLICY, maxMonthlyCost: 23 };
    const plan = planResize({
      policy,
      price: 1.15,
      recommendation: recommending(53),
      numbers: idlePool(5),
      now: NOW,
    });
    expect(plan).toMatchObject({ action: 'grow', targetSize: 20 });
    const tighter = planResize({
      policy: { ...policy, maxMonthlyCost: 22.99 },
      price: 1.15,
      recommendation: recommending(53),
      numbers: idlePool(5),
      now: NOW,
    });
    expect(tighter).toMatchObject({ action: 'grow', targetSize: 19, addCount: 14 });
    expect(tighter.reason).toContain('by max_monthly_cost 22.99');
    expect(tighter.figures.cost_cap_size).toBe(19);
  });

  it('does nothing at the size the caps allow', () => {
    const plan = planResize({
      policy: POLICY,
      price: 1,
      recommendation: recommending(53),
      numbers: idlePool(20),
      now: NOW,
    });
    expect(plan).toMatchObject({ action: 'none', addCount: 0, release: [] });
  });

  it('shrinks towards the recommendation, never below min, the longest idle first', () => {
    const numbers = idlePool(6);
    numbers[0]!.lastCallAt = daysAgo(40);
    numbers[1]!.addedAt = daysAgo(90);
    const plan = planResize({ policy: POLICY, price: 1, recommendation: recommending(0), numbers, now: NOW });
    expect(plan.action).toBe('shrink');
    expect(plan.targetSize).toBe(2);
    expect(plan.release).toHaveLength(4);
    // Idle since 90 days, then the rest added 60 days ago in number order; the one called 40 days ago last.
    expect(plan.release[0]).toBe(numbers[1]!.e164);
    expect(plan.release).not.toContain(numbers[0]!.e164);
  });

  it('keeps numbers bound or in hold-back, called within 30 days, or added within 30 days', () => {
    const numbers = idlePool(5);
    numbers[0]!.bound = true;
    numbers[1]!.lastCallAt = daysAgo(29);
    numbers[2]!.addedAt = daysAgo(10);
    const plan = planResize({
      policy: { ...POLICY, min: 0 },
      price: 1,
      recommendation: recommending(1),
      numbers,
      now: NOW,
    });
    expect(plan.action).toBe('shrink');
    expect(plan.release).toEqual([numbers[3]!.e164, numbers[4]!.e164]);
    expect(plan.reason).toContain('only 2 idle for 30 days');
  });

  it('says so when it would shrink but no number is idle', () => {
    const numbers = idlePool(4).map((number) => ({ ...number, bound: true }));
    const plan = planResize({ policy: POLICY, price: 1, recommendation: recommending(0), numbers, now: NOW });
    expect(plan).toMatchObject({ action: 'none', release: [] });
    expect(plan.reason).toContain('none has been idle for 30 days');
  });

  it('grows to min even when the traffic calls for fewer', () => {
    const plan = planResize({
      policy: { ...POLICY, min: 3 },
      price: 1,
      recommendation: recommending(1),
      numbers: [],
      now: NOW,
    });
    expect(plan).toMatchObject({ action: 'grow', targetSize: 3, addCount: 3 });
    expect(plan.reason).toContain('min is 3');
  });
});
