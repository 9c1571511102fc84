import type { Logger } from '@trackline/platform';
import type { ManagementConfig } from '../config/management-config';
import { createDataSource } from '../db/data-source';
import { createMonthlyReportMailing } from './monthly-report-mailing';
import { startReportSchedule } from './report-schedule';

/**
 * The schedule as `main.ts` runs it, on a pool of its own (one connection: a tick is a handful
 * of statements every quarter hour). Undefined when REPORTS_SCHEDULE_ENABLED is off.
 */
export async function startMonthlyReportSchedule(deps: {
  config: Pick<ManagementConfig, 'databaseUrl' | 'reports'>;
  logger: Logger;
}): Promise<{ stop(): Promise<void> } | undefined> {
  if (!deps.config.reports.scheduleEnabled) {
    deps.logger.info('monthly report schedule off (REPORTS_SCHEDULE_ENABLED); reports:send still works');
    return undefined;
  }
  const dataSource = createDataSource(deps.config.databaseUrl);
  dataSource.setOptions({ extra: { max: 1 }, applicationName: 'trackline-management-reports' });
  await dataSource.initialize();
  const schedule = startReportSchedule({
    queue: createMonthlyReportMailing(dataSource, deps.config).queue,
    logger: deps.logger,
    clock: () => new Date(),
  });
  return {
    stop: async () => {
      await schedule.stop();
      await dataSource.destroy();
    },
  };
}
