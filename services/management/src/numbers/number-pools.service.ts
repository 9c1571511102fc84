import { HOUR_MS } from '@trackline/contracts';
import type { Partner } from '../partners/partner';
import type { PoolTelemetryStore } from '../pool-telemetry/pool-telemetry.store';
import type { NumbersStore } from './numbers.store';
import type { PoolBindingsReader } from './pool-bindings.reader';
import { advisePoolSize, type PoolSizingAdvice } from './pool-sizing';
import { summariseUtilisation, UTILISATION_DAYS, type PoolUtilisation } from './pool-utilisation';

export interface PoolUsage {
  /** The partner's pool numbers (E.164), in number order. */
  numbers: string[];
  size: number;
  /** Pool numbers with a live binding. */
  bound: number;
}

/** GET /number_pools: the pool now, its last 30 days, and the size they call for. */
export interface PoolOverview extends PoolUsage {
  utilisation: PoolUtilisation;
  recommendation: PoolSizingAdvice & { sessionTtlSeconds: number; holdBackSeconds: number };
}

/** GET /number_pools: the inventory from Postgres, the use from the replacement service's Redis state. */
export class NumberPoolsService {
  constructor(
    private readonly numbers: Pick<NumbersStore, 'poolNumbers'>,
    private readonly bindings: PoolBindingsReader,
    private readonly partners: { findByName(name: string): Promise<Partner | null> },
    private readonly telemetry: Pick<PoolTelemetryStore, 'hours'>,
  ) {}

  async usage(partner: { id: string; name: string }, now: Date): Promise<PoolUsage> {
    const [numbers, bound] = await Promise.all([
      this.numbers.poolNumbers(partner.id),
      this.bindings.boundNumbers(partner.name, now),
    ]);
    // Only numbers still in the inventory count: Redis may briefly hold one the projection has not dropped yet.
    const boundSet = new Set(bound);
    return { numbers, size: numbers.length, bound: numbers.filter((number) => boundSet.has(number)).length };
  }

  /**
   * The usage, the stored telemetry of the last 30 days (docs/pool-sizing.md) and the advisor's
   * recommendation for `targetOverflow`, or the partner's own target when none is given.
   */
  async overview(
    partner: { id: string; name: string },
    now: Date,
    targetOverflow: number | undefined,
  ): Promise<PoolOverview> {
    const from = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - UTILISATION_DAYS * 24 * HOUR_MS);
    const [usage, settings, hours] = await Promise.all([
      this.usage(partner, now),
      this.partners.findByName(partner.name),
      this.telemetry.hours(partner.id, from, now),
    ]);
    // The request was authenticated as this partner a moment ago, and partners are never deleted.
    if (settings === null) throw new Error(`partner ${partner.id} not found`);
    const utilisation = summariseUtilisation(hours, from, now);
    const { sessionTtlSeconds, holdBackSeconds } = settings.dni;
    const advice = advisePoolSize({
      arrivalRate: (utilisation.busiestHour?.sessions ?? 0) / 3600,
      holdSeconds: sessionTtlSeconds + holdBackSeconds,
      targetOverflow: targetOverflow ?? settings.pool.targetOverflow,
      currentSize: usage.size,
    });
    return { ...usage, utilisation, recommendation: { ...advice, sessionTtlSeconds, holdBackSeconds } };
  }
}
