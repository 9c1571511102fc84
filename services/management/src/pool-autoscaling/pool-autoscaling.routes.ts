import { ValidationError } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { toPlanFiguresRecord, toPoolResizeRecord } from '../numbers/pool-resize-record';
import { refuseUnknownFields } from '../validation/body-fields';
import { refuseUnknownQuery } from '../validation/query-parameters';
import type { PoolResizesStore } from '../numbers/pool-resizes.store';
import type { PoolAutoscaler } from './pool-autoscaler';
import type { ResizePlan } from './resize-plan';

export const POOL_RESIZE_NAMES: ResourceNames = { plural: 'pool_resizes', singular: 'pool_resize' };
export const RESIZE_PLAN_NAMES: ResourceNames = { plural: 'resize_plans', singular: 'resize_plan' };

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

/**
 * The pool's autoscaling (docs/pool-sizing.md, Autoscaling): what the next evaluation would do, an
 * evaluation now, and the audit of past ones.
 */
export function poolAutoscalingRoutes(
  autoscaler: Pick<PoolAutoscaler, 'plan' | 'evaluate'>,
  resizes: Pick<PoolResizesStore, 'list'>,
): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/number_pools/resize_plan',
      handle: async ({ partner, now, query }) => {
        refuseUnknownQuery(query);
        return {
          kind: 'records',
          names: RESIZE_PLAN_NAMES,
          records: [toResizePlanRecord(await autoscaler.plan(partner.id, now))],
        };
      },
    },
    {
      method: 'POST',
      path: '/number_pools/resize',
      handle: async ({ partner, now, body }) => {
        refuseUnknownFields(body, []);
        return {
          kind: 'records',
          names: POOL_RESIZE_NAMES,
          records: [toPoolResizeRecord(await autoscaler.evaluate(partner.id, 'api', now))],
        };
      },
    },
    {
      method: 'GET',
      path: '/number_pools/resizes',
      handle: async ({ partner, query }) => {
        refuseUnknownQuery(query, ['limit']);
        return {
          kind: 'records',
          names: POOL_RESIZE_NAMES,
          records: (await resizes.list(partner.id, parseLimit(query.limit))).map(toPoolResizeRecord),
        };
      },
    },
  ];
}

export function toResizePlanRecord(plan: ResizePlan): ApiRecord {
  return {
    action: plan.action,
    from_size: String(plan.fromSize),
    target_size: String(plan.targetSize),
    add_count: String(plan.addCount),
    release: [...plan.release],
    reason: plan.reason,
    plan: toPlanFiguresRecord(plan.figures),
  };
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT))
    throw new ValidationError('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
  return limit;
}
