import { HOUR_MS, POOL_STATS_KEEP_HOURS, poolStatsHour, type PoolHourStats } from '@trackline/contracts';
import type { Logger } from '@trackline/platform';
import type { UnitOfWork } from '../db/unit-of-work';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { ExhaustedHour, PoolCallCount, PoolTelemetryStore } from './pool-telemetry.store';

/** An hour is closed (not read from Redis again) this long after it ended: requests in flight land. */
export const POOL_HOUR_CLOSE_GRACE_MS = 2 * 60_000;

export interface PoolTelemetryRollupDeps {
  partners: { list(): Promise<ReadonlyArray<{ id: string; name: string }>> };
  stats: { read(advId: string, hours: readonly number[]): Promise<Map<number, PoolHourStats | null>> };
  calls: { countByHour(from: Date, to: Date): Promise<PoolCallCount[]> };
  store: Pick<PoolTelemetryStore, 'closedHours' | 'upsertHours' | 'setPoolCalls'>;
  /** Marking an hour exhausted and queueing its webhook deliveries commit together. */
  exhaustion: UnitOfWork<{
    telemetry: Pick<PoolTelemetryStore, 'markExhausted'>;
    webhooks: WebhookEventQueue;
  }>;
  /** Told of each partner-hour marked exhausted (the metric). */
  observer?: PoolExhaustionObserver;
  logger: Logger;
}

export interface PoolExhaustionObserver {
  poolExhausted(advId: string): void;
}

/** What one rollup did, for the log and the tests. */
export interface RollupReport {
  partners: number;
  hoursStored: number;
  failedPartners: number;
  exhausted: ExhaustedHour[];
}

/**
 * Rolls the allocation script's hourly counters from Redis into Postgres, sets each hour's pool
 * calls from the call records, and raises `pool.exhausted` for hours whose recycled share passed
 * the partner's threshold (docs/pool-sizing.md, Telemetry). Every step is idempotent, so replicas
 * may run it side by side and a failed run is simply repeated.
 */
export class PoolTelemetryRollup {
  private readonly log: Logger;

  constructor(private readonly deps: PoolTelemetryRollupDeps) {
    this.log = deps.logger.child({ component: 'pool-telemetry' });
  }

  /**
   * Reads the hours from `fromHour` (epoch hours; at most POOL_STATS_KEEP_HOURS back, what Redis
   * still holds) to the hour of `now`, leaving out hours already closed.
   */
  async run(now: Date, fromHour: number): Promise<RollupReport> {
    const currentHour = poolStatsHour(now.getTime());
    const firstHour = Math.max(fromHour, currentHour - POOL_STATS_KEEP_HOURS);
    const from = new Date(firstHour * HOUR_MS);
    const [partners, closed] = await Promise.all([
      this.deps.partners.list(),
      this.deps.store.closedHours(from),
    ]);
    let hoursStored = 0;
    let failedPartners = 0;
    for (const partner of partners) {
      const done = closed.get(partner.id);
      const hours: number[] = [];
      for (let hour = firstHour; hour <= currentHour; hour++)
        if (!done?.has(hour * HOUR_MS)) hours.push(hour);
      try {
        const stats = await this.deps.stats.read(partner.name, hours);
        const rows = [...stats]
          .filter((entry): entry is [number, PoolHourStats] => entry[1] !== null)
          .map(([hour, counters]) => ({
            hour: new Date(hour * HOUR_MS),
            stats: counters,
            closed: now.getTime() >= (hour + 1) * HOUR_MS + POOL_HOUR_CLOSE_GRACE_MS,
          }));
        await this.deps.store.upsertHours(partner.id, rows);
        hoursStored += rows.length;
      } catch (error) {
        // One partner's failure (Redis briefly away) leaves the others' hours rolled; its own are
        // read again next time.
        failedPartners += 1;
        this.log.warn({ err: error, partner: partner.name }, 'pool telemetry of a partner not rolled up');
      }
    }
    await this.deps.store.setPoolCalls(
      await this.deps.calls.countByHour(from, new Date((currentHour + 1) * HOUR_MS)),
    );
    const exhausted = await this.deps.exhaustion.run(async ({ telemetry, webhooks }) => {
      const marked = await telemetry.markExhausted(from);
      for (const hour of marked) await webhooks.enqueue(hour.partnerId, [{ type: 'pool.exhausted' }]);
      return marked;
    });
    const names = new Map(partners.map((partner) => [partner.id, partner.name]));
    for (const hour of exhausted) {
      const advId = names.get(hour.partnerId) ?? hour.partnerId;
      this.deps.observer?.poolExhausted(advId);
      this.log.info({ partner: advId, hour: hour.hour.toISOString() }, 'pool exhausted');
    }
    return { partners: partners.length, hoursStored, failedPartners, exhausted };
  }
}
