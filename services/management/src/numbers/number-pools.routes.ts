import type { ApiRecord } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import type { NumberPoolsService, PoolUsage } from './number-pools.service';

export const NUMBER_POOL_NAMES = { plural: 'number_pools', singular: 'number_pool' } as const;

/** GET /number_pools (an extension: docs/numbers-and-sources.md): the partner's pool, one record. */
export function numberPoolRoutes(service: NumberPoolsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/number_pools',
      handle: async ({ partner, now }) => ({
        kind: 'records',
        names: NUMBER_POOL_NAMES,
        records: [toNumberPoolRecord(await service.usage(partner, now))],
      }),
    },
  ];
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
