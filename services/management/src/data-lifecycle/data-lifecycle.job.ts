import type { Logger } from '@trackline/platform';
import type { DataLifecycleReport, DataLifecycleService } from './data-lifecycle.service';
import type { DataLifecycleRunsStore } from './data-lifecycle-runs.store';

export const DATA_LIFECYCLE_JOB = 'cdr-retention';

export interface DataLifecycleObserver {
  dataLifecycleRun(report: DataLifecycleReport | null): void;
}

/**
 * Runs the data lifecycle once a day at `hourUtc`, on one replica only: every replica asks now and
 * then (`tick`), and the one whose claim of the due row succeeds runs it.
 */
export class DataLifecycleJob {
  constructor(
    private readonly deps: {
      service: Pick<DataLifecycleService, 'run'>;
      runs: Pick<DataLifecycleRunsStore, 'claim' | 'finished'>;
      logger: Logger;
      observer?: DataLifecycleObserver;
    },
    private readonly hourUtc: number,
  ) {}

  /** Answers the report when this call ran the job, null when it was not due here. */
  async tick(now: Date): Promise<DataLifecycleReport | null> {
    if (!(await this.deps.runs.claim(DATA_LIFECYCLE_JOB, now, nextRunAfter(now, this.hourUtc)))) return null;
    const started = Date.now();
    try {
      const report = await this.deps.service.run(now);
      const durationMs = Date.now() - started;
      this.deps.logger.info({ ...report, durationMs }, 'data lifecycle run finished');
      if (report.recordsInDefault > 0)
        this.deps.logger.warn(
          { recordsInDefault: report.recordsInDefault },
          'records outside every monthly partition sit in cdrs_default; see docs/operations.md',
        );
      this.deps.observer?.dataLifecycleRun(report);
      await this.deps.runs.finished(DATA_LIFECYCLE_JOB, new Date(), { ...report, durationMs });
      return report;
    } catch (error) {
      // The next day's run repeats what is left: every step is safe to run again.
      this.deps.logger.error({ err: error }, 'data lifecycle run failed');
      this.deps.observer?.dataLifecycleRun(null);
      await this.deps.runs.finished(DATA_LIFECYCLE_JOB, new Date(), { error: (error as Error).message });
      throw error;
    }
  }
}

/** The first `hourUtc`:00 UTC after `now`. */
export function nextRunAfter(now: Date, hourUtc: number): Date {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc));
  return today > now ? today : new Date(today.getTime() + 86_400_000);
}
