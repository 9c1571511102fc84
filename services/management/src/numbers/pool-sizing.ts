import { erlangB, smallestServersFor } from '@trackline/domain';

/** What the advisor sizes from (docs/pool-sizing.md). */
export interface PoolSizingInputs {
  /** λ: new sessions per second in the busiest hour of the window. */
  arrivalRate: number;
  /** T: how long a session holds its number at least, session lifetime + hold-back (s). */
  holdSeconds: number;
  /** The Erlang B blocking the pool must reach, in (0, 1]. */
  targetOverflow: number;
  /** The pool's size today. */
  currentSize: number;
}

export interface PoolSizingAdvice extends PoolSizingInputs {
  /** A = λ × T, in erlangs: the numbers the busiest hour keeps busy on average. */
  offeredLoad: number;
  /** N: the smallest pool whose Erlang B blocking for A is at or below the target. */
  recommendedSize: number;
  blockingAtRecommended: number;
  blockingAtCurrent: number;
}

/**
 * A pool is a loss system: a session that finds every number held takes a recycled one (or keeps the
 * page's own number), like a call that finds every line busy. Erlang B gives the share of sessions
 * that do, for A erlangs offered to N numbers.
 */
export function advisePoolSize(inputs: PoolSizingInputs): PoolSizingAdvice {
  const offeredLoad = inputs.arrivalRate * inputs.holdSeconds;
  const recommendedSize = smallestServersFor(offeredLoad, inputs.targetOverflow);
  return {
    ...inputs,
    offeredLoad,
    recommendedSize,
    blockingAtRecommended: erlangB(recommendedSize, offeredLoad),
    blockingAtCurrent: erlangB(inputs.currentSize, offeredLoad),
  };
}
