import { poolStatsHour, POOL_STATS_KEEP_HOURS } from '@trackline/contracts';
import type { Logger } from '@trackline/platform';
import type { PoolTelemetryRollup } from './pool-telemetry.rollup';

export interface PoolTelemetryJobSettings {
  /** Pause between rollups (POOL_TELEMETRY_INTERVAL_MS). */
  intervalMs: number;
}

/**
 * Runs the rollup every `intervalMs` until stopped (docs/pool-sizing.md, Telemetry). The first run
 * reads every hour Redis may still hold; later runs read from the hour before the previous run's,
 * so an hour is read again once after it ended and is then closed. A run that fails is repeated
 * from the same hour.
 */
export class PoolTelemetryJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Epoch hour the next run reads from; undefined until a run succeeded. */
  private fromHour: number | undefined;

  constructor(
    private readonly rollup: Pick<PoolTelemetryRollup, 'run'>,
    private readonly settings: PoolTelemetryJobSettings,
    private readonly clock: () => Date,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Waits for a run in flight; no run starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One run now (tests, and the loop). */
  async runOnce(): Promise<void> {
    const now = this.clock();
    const currentHour = poolStatsHour(now.getTime());
    const fromHour = this.fromHour ?? currentHour - POOL_STATS_KEEP_HOURS;
    try {
      const report = await this.rollup.run(now, fromHour);
      // A partner that failed keeps the window where it was, so its hours are read again.
      if (report.failedPartners === 0) this.fromHour = currentHour - 1;
    } catch (error) {
      this.logger.error({ err: error, component: 'pool-telemetry' }, 'pool telemetry rollup failed');
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => this.schedule(this.settings.intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}
