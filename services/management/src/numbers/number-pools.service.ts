import { HOUR_MS } from '@trackline/contracts';
import type { Partner } from '../partners/partner';
import type { PartnerChangeListener } from '../partners/partner-change-listener';
import type { PoolTelemetryStore } from '../pool-telemetry/pool-telemetry.store';
import type { NumbersStore } from './numbers.store';
import type { PoolBindingsReader } from './pool-bindings.reader';
import type { PoolResize, PoolResizesStore } from './pool-resizes.store';
import { sessionTimingInForce, type PoolSettings, type SessionTiming } from './pool-settings';
import { applyPoolSettingsInput } from './pool-settings.dto';
import type { PoolSettingsStore } from './pool-settings.store';
import { advisePoolSize, type PoolSizingAdvice } from './pool-sizing';
import { summariseUtilisation, UTILISATION_DAYS, type PoolUtilisation } from './pool-utilisation';

export interface PoolUsage {
  /** The partner's pool numbers (E.164), in number order. */
  numbers: string[];
  size: number;
  /** Pool numbers with a live binding. */
  bound: number;
}

export type PoolRecommendation = PoolSizingAdvice & { sessionTtlSeconds: number; holdBackSeconds: number };

/** GET /number_pools: the pool now, its settings, its last 30 days and the size they call for. */
export interface PoolOverview extends PoolUsage {
  settings: PoolSettings;
  /** The lifetime and hold-back in force: the pool's, else the partner's. */
  timing: SessionTiming;
  utilisation: PoolUtilisation;
  recommendation: PoolRecommendation;
  /** The last evaluation of the autoscaling policy; null before the first. */
  lastEvaluation: PoolResize | null;
}

/**
 * GET and PUT /number_pools: the inventory from Postgres, the use from the replacement service's
 * Redis state, the pool's own settings (docs/pool-sizing.md).
 */
export class NumberPoolsService {
  constructor(
    private readonly stores: {
      numbers: Pick<NumbersStore, 'poolNumbers'>;
      bindings: PoolBindingsReader;
      partners: { findById(id: string): Promise<Partner | null> };
      telemetry: Pick<PoolTelemetryStore, 'hours'>;
      settings: Pick<PoolSettingsStore, 'find' | 'save'>;
      resizes: Pick<PoolResizesStore, 'latest'>;
    },
    /** Told after a settings change: the replacement service reads the lifetime and hold-back from Redis. */
    private readonly listeners: readonly PartnerChangeListener[] = [],
  ) {}

  async usage(partner: { id: string; name: string }, now: Date): Promise<PoolUsage> {
    const [numbers, bound] = await Promise.all([
      this.stores.numbers.poolNumbers(partner.id),
      this.stores.bindings.boundNumbers(partner.name, now),
    ]);
    // Only numbers still in the inventory count: Redis may briefly hold one the projection has not dropped yet.
    const boundSet = new Set(bound);
    return { numbers, size: numbers.length, bound: numbers.filter((number) => boundSet.has(number)).length };
  }

  /**
   * The usage, the stored telemetry of the last 30 days (docs/pool-sizing.md) and the advisor's
   * recommendation for `targetOverflow`, else the pool's own target, else the partner's.
   */
  async overview(
    partner: { id: string; name: string },
    now: Date,
    targetOverflow: number | undefined,
  ): Promise<PoolOverview> {
    const from = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - UTILISATION_DAYS * 24 * HOUR_MS);
    const [usage, stored, hours, settings, lastEvaluation] = await Promise.all([
      this.usage(partner, now),
      this.stores.partners.findById(partner.id),
      this.stores.telemetry.hours(partner.id, from, now),
      this.stores.settings.find(partner.id),
      this.stores.resizes.latest(partner.id),
    ]);
    // The request was authenticated as this partner a moment ago, and partners are never deleted.
    if (stored === null) throw new Error(`partner ${partner.id} not found`);
    const utilisation = summariseUtilisation(hours, from, now);
    const timing = sessionTimingInForce(stored, settings);
    const recommendation = recommend(utilisation, timing, usage.size, {
      targetOverflow: targetOverflow ?? settings.autoscaling.targetOverflow ?? stored.pool.targetOverflow,
    });
    return { ...usage, settings, timing, utilisation, recommendation, lastEvaluation };
  }

  /** PUT /number_pools: the fields sent change; the projections follow before it answers. */
  async updateSettings(partner: { id: string; name: string }, input: Record<string, unknown>, now: Date) {
    const current = await this.stores.settings.find(partner.id);
    await this.stores.settings.save(partner.id, applyPoolSettingsInput(current, input), now);
    for (const listener of this.listeners) await listener.partnerChanged(partner.id);
    return this.overview(partner, now, undefined);
  }
}

/** The advisor's figures for the busiest hour of the window, under the timing in force now. */
export function recommend(
  utilisation: PoolUtilisation,
  timing: SessionTiming,
  currentSize: number,
  target: { targetOverflow: number },
): PoolRecommendation {
  const advice = advisePoolSize({
    arrivalRate: (utilisation.busiestHour?.sessions ?? 0) / 3600,
    holdSeconds: timing.sessionLifetimeSeconds + timing.holdBackSeconds,
    targetOverflow: target.targetOverflow,
    currentSize,
  });
  return {
    ...advice,
    sessionTtlSeconds: timing.sessionLifetimeSeconds,
    holdBackSeconds: timing.holdBackSeconds,
  };
}
