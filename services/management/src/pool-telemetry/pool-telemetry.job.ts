import { poolStatsHour, POOL_STATS_KEEP_HOURS } from '@trackline/contracts';
import { PollingWorker, type Logger } from '@trackline/platform';
import type { PoolTelemetryRollup } from './pool-telemetry.rollup';

export interface PoolTelemetryJobSettings {
  /** Pause between rollups (POOL_TELEMETRY_INTERVAL_MS). */
  intervalMs: number;
}

/**
 * Runs the rollup every `intervalMs` until stopped (docs/pool-sizing.md, Telemetry). The first run
 * reads every hour Redis may still hold; later runs read from the hour before the previous run's,
 * so an hour is read again once after it ended and is then closed. A run that fails is repeated
 * from the same hour, one interval later.
 */
export class PoolTelemetryJob {
  private readonly worker: PollingWorker;
  /** Epoch hour the next run reads from; undefined until a run succeeded. */
  private fromHour: number | undefined;

  constructor(
    private readonly rollup: Pick<PoolTelemetryRollup, 'run'>,
    settings: PoolTelemetryJobSettings,
    private readonly clock: () => Date,
    logger: Logger,
  ) {
    this.worker = new PollingWorker({
      name: 'pool telemetry',
      round: async () => {
        await this.runOnce();
        return 'idle';
      },
      idleMs: settings.intervalMs,
      // A failed run is repeated at the next interval, as a run that succeeded is.
      errorBackoff: { firstMs: settings.intervalMs, maxMs: settings.intervalMs },
      onError: (error, failures) =>
        logger.error({ err: error, failures, component: 'pool-telemetry' }, 'pool telemetry rollup failed'),
    });
  }

  start(): void {
    this.worker.start();
  }

  /** Waits for a run in flight; no run starts after. */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** One run now (tests, and the loop's round); a run that fails rejects and keeps the window. */
  async runOnce(): Promise<void> {
    const now = this.clock();
    const currentHour = poolStatsHour(now.getTime());
    const fromHour = this.fromHour ?? currentHour - POOL_STATS_KEEP_HOURS;
    const report = await this.rollup.run(now, fromHour);
    // A partner that failed keeps the window where it was, so its hours are read again.
    if (report.failedPartners === 0) this.fromHour = currentHour - 1;
  }
}
