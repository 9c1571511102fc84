import { Cron } from 'croner';
import type { Logger } from '@trackline/platform';
import type { MonthlyReportQueue } from './monthly-report-queue';

/**
 * Every quarter of an hour on the UTC clock, and once at start. Every zone in use is a whole
 * number of quarter hours from UTC, so a tick falls on 06:00 local in each; between ticks the
 * queue's own due-time check (`REPORT_SCHEDULE` in the partner's zone) decides.
 */
export const REPORT_TICK = '*/15 * * * *';

export interface RunningReportSchedule {
  /** Stops the ticks and waits for one in flight. */
  stop(): Promise<void>;
}

/** Starts the monthly report schedule (docs/reports.md). Every replica may run it: enqueueing is idempotent. */
export function startReportSchedule(deps: {
  queue: Pick<MonthlyReportQueue, 'enqueueDue'>;
  logger: Logger;
  clock: () => Date;
}): RunningReportSchedule {
  const log = deps.logger.child({ component: 'report-schedule' });
  let inFlight: Promise<void> = Promise.resolve();
  const tick = (): Promise<void> => {
    inFlight = deps.queue
      .enqueueDue(deps.clock())
      .then((added) => {
        if (added > 0) log.info({ added }, 'monthly reports queued');
      })
      .catch((error: unknown) => log.error({ err: error }, 'monthly report schedule tick failed'));
    return inFlight;
  };
  // protect: a tick still running when the next is due is not run twice at once.
  const job = new Cron(REPORT_TICK, { timezone: 'UTC', protect: true }, tick);
  void tick();
  return {
    stop: async () => {
      job.stop();
      await inFlight;
    },
  };
}
