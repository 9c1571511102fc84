import { PollingWorker, type Logger } from '@trackline/platform';
import type { ManagementConfig } from '../config/management-config';
import { openWorkerDatabase } from './management-connections';
import { createDataLifecycle } from './data-lifecycle-composition';
import type { DataLifecycleObserver } from '../data-lifecycle/data-lifecycle.job';

export interface RunningDataLifecycle {
  /** Waits for a run in flight, then closes the job's database pool. */
  stop(): Promise<void>;
}

/**
 * At service start: the months ahead are created (so a forgotten CronJob cannot let records fall
 * into the default partition), then every replica asks every `checkMs` whether the daily run is due
 * (docs/operations.md, "Data lifecycle").
 */
export async function startDataLifecycle(deps: {
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePreparedStatements' | 'dataLifecycle'>;
  logger: Logger;
  observer?: DataLifecycleObserver;
  clock?: () => Date;
}): Promise<RunningDataLifecycle> {
  const { config, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  // Its own small pool (composition/management-connections.ts).
  const dataSource = await openWorkerDatabase(config, 'dataLifecycle');
  const { partitions, job } = createDataLifecycle(dataSource, {
    monthsAhead: config.dataLifecycle.monthsAhead,
    cdrChangeRetentionDays: config.dataLifecycle.cdrChangeRetentionDays,
    hourUtc: config.dataLifecycle.hourUtc,
    logger,
    observer: deps.observer,
  });
  // Not fatal: records of a missing month land in cdrs_default until the daily run (or cdrs:partitions)
  // creates it and moves them; the API must not stay down for that.
  await partitions.ensure(clock(), config.dataLifecycle.monthsAhead).then(
    (ensured) => logger.info(ensured, 'cdrs monthly partitions checked'),
    (error: unknown) =>
      logger.error({ err: error }, 'cdrs monthly partitions could not be checked; run cdrs:partitions'),
  );
  const checkMs = config.dataLifecycle.checkMs;
  const checks = new PollingWorker({
    name: 'data lifecycle',
    round: async () => {
      await job.tick(clock());
      return 'idle';
    },
    idleMs: checkMs,
    // A failed run waits for the next day (the job says so in the log); a failed check is asked again as usual.
    errorBackoff: { firstMs: checkMs, maxMs: checkMs },
    onError: (error, failures) =>
      logger.warn({ err: error, failures }, 'data lifecycle check failed; asking again at the next check'),
  });
  checks.start();
  return {
    stop: async () => {
      await checks.stop();
      await dataSource.destroy();
    },
  };
}
