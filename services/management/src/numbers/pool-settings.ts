import type { CountryCode } from '@trackline/domain';

/**
 * How a partner's pool grows and shrinks on its own (docs/pool-sizing.md, Autoscaling): within
 * `min`..`max` numbers and a monthly cost, towards the advisor's recommendation.
 */
export interface AutoscalingPolicy {
  enabled: boolean;
  /** Never shrink below this many numbers. */
  min: number;
  /** Never grow above this many numbers; required to enable. */
  max: number | null;
  /** The Erlang B blocking to size for; null: the partner's `target-overflow`. */
  targetOverflow: number | null;
  /** What the pool's numbers may cost a month at most (numbers × price); required to enable. */
  maxMonthlyCost: number | null;
  /** The carrier's price of one number a month, in the same currency; null: NUMBER_MONTHLY_PRICE. */
  numberMonthlyPrice: number | null;
  /** Where numbers are bought: the partner's country unless set, and an optional area code / pattern. */
  country: CountryCode | null;
  areaCode: string | null;
  contains: string | null;
}

/** A pool's own settings: each null timing falls back to the partner's default. */
export interface PoolSettings {
  sessionLifetimeSeconds: number | null;
  holdBackSeconds: number | null;
  autoscaling: AutoscalingPolicy;
}

export const DEFAULT_AUTOSCALING: AutoscalingPolicy = {
  enabled: false,
  min: 0,
  max: null,
  targetOverflow: null,
  maxMonthlyCost: null,
  numberMonthlyPrice: null,
  country: null,
  areaCode: null,
  contains: null,
};

export const DEFAULT_POOL_SETTINGS: PoolSettings = {
  sessionLifetimeSeconds: null,
  holdBackSeconds: null,
  autoscaling: DEFAULT_AUTOSCALING,
};

/** The lifetime and hold-back in force: the pool's where it set them, else the partner's. */
export interface SessionTiming {
  sessionLifetimeSeconds: number;
  holdBackSeconds: number;
}

export function sessionTimingInForce(
  partner: { dni: { sessionTtlSeconds: number; holdBackSeconds: number } },
  pool: Pick<PoolSettings, 'sessionLifetimeSeconds' | 'holdBackSeconds'>,
): SessionTiming {
  return {
    sessionLifetimeSeconds: pool.sessionLifetimeSeconds ?? partner.dni.sessionTtlSeconds,
    holdBackSeconds: pool.holdBackSeconds ?? partner.dni.holdBackSeconds,
  };
}

/**
 * What one number costs a month when the pool does not say: Twilio's list price of a US local
 * number. Amounts carry no currency: the partner's carrier bills in its own.
 */
export const DEFAULT_NUMBER_MONTHLY_PRICE = 1.15;

export function numberMonthlyPrice(policy: AutoscalingPolicy): number {
  return policy.numberMonthlyPrice ?? DEFAULT_NUMBER_MONTHLY_PRICE;
}
