import { PollingWorker, type Logger } from '@trackline/platform';
import type { PoolAutoscaler } from './pool-autoscaler';

export interface PoolAutoscalingJobSettings {
  /** How often each pool is evaluated (POOL_AUTOSCALING_INTERVAL_MS; an hour). */
  intervalMs: number;
  /** How often a replica looks for pools due (POOL_AUTOSCALING_CHECK_MS). */
  checkMs: number;
}

/**
 * Evaluates each autoscaling pool once per interval, whichever replica claims it first
 * (docs/pool-sizing.md, Autoscaling). A round that fails is tried again at the next check.
 */
export class PoolAutoscalingJob {
  private readonly worker: PollingWorker;

  constructor(
    autoscaler: Pick<PoolAutoscaler, 'runDue'>,
    settings: PoolAutoscalingJobSettings,
    clock: () => Date,
    logger: Logger,
  ) {
    this.worker = new PollingWorker({
      name: 'pool autoscaling',
      round: async () => {
        await autoscaler.runDue(clock(), settings.intervalMs);
        return 'idle';
      },
      idleMs: settings.checkMs,
      errorBackoff: { firstMs: settings.checkMs, maxMs: settings.checkMs },
      onError: (error, failures) =>
        logger.error(
          { err: error, failures, component: 'pool-autoscaling' },
          'pool autoscaling round failed',
        ),
    });
  }

  start(): void {
    this.worker.start();
  }

  /** Waits for a round in flight; no round starts after. */
  stop(): Promise<void> {
    return this.worker.stop();
  }
}
