import { renderFlag, ValidationError } from '@trackline/domain';
import type { ApiRecord } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { parseShare } from '../partners/partner-settings.dto';
import { shareText, toPoolHourRecord } from '../pool-telemetry/pool-hour-record';
import type { NumberPoolsService, PoolOverview, PoolUsage } from './number-pools.service';
import { toPoolResizeRecord } from './pool-resize-record';
import { numberMonthlyPrice } from './pool-settings';
import type { PoolDay } from './pool-utilisation';

export const NUMBER_POOL_NAMES = { plural: 'number_pools', singular: 'number_pool' } as const;

/**
 * GET /number_pools (an extension: docs/numbers-and-sources.md): the partner's pool, one record;
 * PUT /number_pools: its own settings (docs/pool-sizing.md).
 */
export function numberPoolRoutes(service: NumberPoolsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/number_pools',
      handle: async ({ partner, now, query }) => ({
        kind: 'records',
        names: NUMBER_POOL_NAMES,
        records: [toNumberPoolOverviewRecord(await service.overview(partner, now, parsePoolQuery(query)))],
      }),
    },
    {
      method: 'PUT',
      path: '/number_pools',
      handle: async ({ partner, now, body }) => ({
        kind: 'records',
        names: NUMBER_POOL_NAMES,
        records: [toNumberPoolOverviewRecord(await service.updateSettings(partner, body, now))],
      }),
    },
  ];
}

/** `target_overflow` (optional): a share in (0, 1]; any other parameter is refused. */
function parsePoolQuery(query: Record<string, string>): number | undefined {
  for (const name of Object.keys(query))
    if (name !== 'target_overflow') throw new ValidationError(name, 'is not a known query parameter');
  return query.target_overflow === undefined
    ? undefined
    : parseShare('target_overflow', query.target_overflow);
}

/** Utilisation is bound / size as a decimal string with four places; null for an empty pool. */
export function toNumberPoolRecord(usage: PoolUsage): ApiRecord {
  return {
    numbers: [...usage.numbers],
    size: String(usage.size),
    bound: String(usage.bound),
    utilisation: usage.size === 0 ? null : (usage.bound / usage.size).toFixed(4),
  };
}

/**
 * The seed's fields first, unchanged; then the pool's settings, the 30 days and the advice
 * (docs/pool-sizing.md).
 */
export function toNumberPoolOverviewRecord(overview: PoolOverview): ApiRecord {
  const { utilisation, recommendation, settings, timing } = overview;
  const policy = settings.autoscaling;
  const price = numberMonthlyPrice(policy);
  return {
    ...toNumberPoolRecord(overview),
    session_lifetime_seconds: String(timing.sessionLifetimeSeconds),
    session_lifetime_from: settings.sessionLifetimeSeconds === null ? 'partner' : 'pool',
    hold_back_seconds: String(timing.holdBackSeconds),
    hold_back_from: settings.holdBackSeconds === null ? 'partner' : 'pool',
    autoscaling: renderFlag(policy.enabled),
    min: String(policy.min),
    max: policy.max === null ? null : String(policy.max),
    target_overflow: policy.targetOverflow === null ? null : policy.targetOverflow.toFixed(4),
    max_monthly_cost: policy.maxMonthlyCost === null ? null : policy.maxMonthlyCost.toFixed(2),
    number_monthly_price: price.toFixed(4),
    monthly_cost: (overview.size * price).toFixed(2),
    country: policy.country,
    area_code: policy.areaCode,
    contains: policy.contains,
    last_evaluation: overview.lastEvaluation === null ? null : toPoolResizeRecord(overview.lastEvaluation),
    last_30_days: {
      from: utilisation.from.toISOString(),
      to: utilisation.to.toISOString(),
      ...dayFields(utilisation.totals),
      busiest_hour: utilisation.busiestHour === null ? null : toPoolHourRecord(utilisation.busiestHour),
      days: utilisation.days.map((day) => ({ date: day.date, ...dayFields(day) })),
    },
    recommendation: {
      target_overflow: recommendation.targetOverflow.toFixed(4),
      arrival_rate: recommendation.arrivalRate.toFixed(6),
      session_ttl: String(recommendation.sessionTtlSeconds),
      hold_back: String(recommendation.holdBackSeconds),
      hold_seconds: String(recommendation.holdSeconds),
      offered_load: recommendation.offeredLoad.toFixed(4),
      recommended_size: String(recommendation.recommendedSize),
      blocking_at_recommended: recommendation.blockingAtRecommended.toFixed(6),
      current_size: String(recommendation.currentSize),
      blocking_at_current: recommendation.blockingAtCurrent.toFixed(6),
    },
  };
}

function dayFields(day: Omit<PoolDay, 'date'>): ApiRecord {
  return {
    sessions: String(day.sessions),
    issued: String(day.issued),
    recycled: String(day.recycled),
    recycled_share: shareText(day.recycled, day.issued),
    peak_leased: String(day.peakLeased),
    pool_calls: String(day.poolCalls),
    calls_per_binding: shareText(day.poolCalls, day.issued),
  };
}
