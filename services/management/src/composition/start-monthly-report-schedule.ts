import type { Logger } from '@trackline/platform';
import type { ManagementConfig } from '../config/management-config';
import { openWorkerDatabase } from './management-connections';
import { createMonthlyReportMailing } from './monthly-report-composition';
import { startReportSchedule } from '../reports/report-schedule';

/**
 * The schedule as `main.ts` runs it, on a pool of its own (composition/management-connections.ts).
 * Undefined when REPORTS_SCHEDULE_ENABLED is off.
 */
export async function startMonthlyReportSchedule(deps: {
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePreparedStatements' | 'reports'>;
  logger: Logger;
}): Promise<{ stop(): Promise<void> } | undefined> {
  if (!deps.config.reports.scheduleEnabled) {
    deps.logger.info('monthly report schedule off (REPORTS_SCHEDULE_ENABLED); reports:send still works');
    return undefined;
  }
  const dataSource = await openWorkerDatabase(deps.config, 'reports');
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
