import type { PoolRecommendation } from '../numbers/number-pools.service';
import type { ResizePlanFigures } from '../numbers/pool-resizes.store';
import type { AutoscalingPolicy } from '../numbers/pool-settings';

/** A pool number as the shrinking rule sees it (docs/pool-sizing.md, Autoscaling). */
export interface PoolNumberUse {
  e164: string;
  /** A session holds it, or its hold-back still runs. */
  bound: boolean;
  /** The last call to it within the idle window; null when none. */
  lastCallAt: Date | null;
  addedAt: Date;
}

export interface ResizePlan {
  action: 'grow' | 'shrink' | 'none';
  fromSize: number;
  /** The size the plan aims for within the caps. */
  targetSize: number;
  /** Numbers to buy. */
  addCount: number;
  /** Numbers to release, the longest idle first. */
  release: string[];
  reason: string;
  figures: ResizePlanFigures;
}

/** A number is released only after this long without a binding or a call (and as long in the pool). */
export const IDLE_DAYS_BEFORE_RELEASE = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What one evaluation does: grow to the advisor's recommendation within `max` and the numbers the
 * monthly cost cap pays for; shrink towards it, never below `min`, releasing only numbers idle for
 * IDLE_DAYS_BEFORE_RELEASE days; otherwise nothing.
 */
export function planResize(input: {
  policy: AutoscalingPolicy;
  price: number;
  recommendation: PoolRecommendation;
  numbers: readonly PoolNumberUse[];
  now: Date;
}): ResizePlan {
  const { policy, price, recommendation, numbers, now } = input;
  const fromSize = numbers.length;
  const max = policy.max ?? fromSize;
  // A cent's tolerance, so 23.00 ÷ 1.15 is 20 numbers and not 19.
  const costCapSize = policy.maxMonthlyCost === null ? max : Math.floor(policy.maxMonthlyCost / price + 1e-9);
  const ceiling = Math.max(policy.min, Math.min(max, costCapSize));
  const targetSize = Math.min(ceiling, Math.max(policy.min, recommendation.recommendedSize));
  const figures: ResizePlanFigures = {
    arrival_rate: recommendation.arrivalRate.toFixed(6),
    hold_seconds: recommendation.holdSeconds,
    offered_load: recommendation.offeredLoad.toFixed(4),
    target_overflow: recommendation.targetOverflow.toFixed(4),
    recommended_size: recommendation.recommendedSize,
    min: policy.min,
    max: policy.max,
    max_monthly_cost: policy.maxMonthlyCost === null ? null : policy.maxMonthlyCost.toFixed(2),
    number_monthly_price: price.toFixed(4),
    cost_cap_size: costCapSize,
    target_size: targetSize,
  };
  const advice =
    `the busiest hour of 30 days (λ = ${figures.arrival_rate}/s, T = ${recommendation.holdSeconds} s, ` +
    `A = ${figures.offered_load} erlangs) calls for ${count(recommendation.recommendedSize)} at a ` +
    `blocking of at most ${figures.target_overflow}`;
  const capped = describeCap(recommendation.recommendedSize, targetSize, policy, costCapSize);

  if (targetSize > fromSize) {
    return {
      action: 'grow',
      fromSize,
      targetSize,
      addCount: targetSize - fromSize,
      release: [],
      reason: `grow from ${fromSize} to ${targetSize}: ${advice}${capped}`,
      figures,
    };
  }
  if (targetSize < fromSize) {
    const idle = idleNumbers(numbers, now);
    const release = idle.slice(0, fromSize - targetSize);
    if (release.length === 0) {
      return {
        action: 'none',
        fromSize,
        targetSize,
        addCount: 0,
        release: [],
        reason:
          `${count(fromSize)} where ${targetSize} would do, but none has been idle for ` +
          `${IDLE_DAYS_BEFORE_RELEASE} days (no binding, no hold-back, no call): ${advice}${capped}`,
        figures,
      };
    }
    return {
      action: 'shrink',
      fromSize,
      targetSize,
      addCount: 0,
      release,
      reason:
        `shrink from ${fromSize} to ${fromSize - release.length}` +
        (release.length < fromSize - targetSize
          ? ` (towards ${targetSize}; only ${release.length} idle for ${IDLE_DAYS_BEFORE_RELEASE} days)`
          : '') +
        `: ${advice}${capped}`,
      figures,
    };
  }
  return {
    action: 'none',
    fromSize,
    targetSize,
    addCount: 0,
    release: [],
    reason: `${count(fromSize)} is the size: ${advice}${capped}`,
    figures,
  };
}

function describeCap(
  recommended: number,
  target: number,
  policy: AutoscalingPolicy,
  costCap: number,
): string {
  if (target === recommended) return '';
  if (target === policy.min && recommended < policy.min) return `; min is ${policy.min}`;
  if (costCap < (policy.max ?? Infinity) && target === Math.max(policy.min, costCap))
    return `; capped at ${target} by max_monthly_cost ${policy.maxMonthlyCost?.toFixed(2)}`;
  return `; capped at ${target} by max`;
}

/** Unbound, no hold-back running, no call and in the pool for the idle window; the longest idle first. */
function idleNumbers(numbers: readonly PoolNumberUse[], now: Date): string[] {
  const since = now.getTime() - IDLE_DAYS_BEFORE_RELEASE * DAY_MS;
  const idleSince = (number: PoolNumberUse): number =>
    Math.max(number.addedAt.getTime(), number.lastCallAt?.getTime() ?? 0);
  return numbers
    .filter((number) => !number.bound && idleSince(number) <= since)
    .sort((a, b) => idleSince(a) - idleSince(b) || a.e164.localeCompare(b.e164))
    .map((number) => number.e164);
}

function count(numbers: number): string {
  return `${numbers} number${numbers === 1 ? '' : 's'}`;
}
