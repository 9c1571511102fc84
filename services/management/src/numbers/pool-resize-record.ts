import type { ApiRecord } from '../http/api-response';
import type { PoolResize, ResizePlanFigures } from './pool-resizes.store';

/**
 * One evaluation of the autoscaling policy as the API, the CLI's JSON and the `pool.resized`
 * webhook show it (docs/pool-sizing.md, Autoscaling).
 */
export function toPoolResizeRecord(resize: PoolResize): ApiRecord {
  return {
    id: resize.id,
    at: resize.at.toISOString(),
    trigger: resize.trigger,
    outcome: resize.outcome,
    from_size: String(resize.fromSize),
    to_size: String(resize.toSize),
    added: [...resize.added],
    released: [...resize.released],
    reason: resize.reason,
    error_code: resize.errorCode,
    error: resize.error,
    plan: toPlanFiguresRecord(resize.plan),
  };
}

/** A plan's figures as the API shows them: each a string, null where the policy has no value. */
export function toPlanFiguresRecord(figures: ResizePlanFigures): ApiRecord {
  return Object.fromEntries(
    Object.entries(figures).map(([name, value]) => [name, value === null ? null : String(value)]),
  );
}
