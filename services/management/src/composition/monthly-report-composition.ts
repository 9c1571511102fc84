import type { DataSource } from 'typeorm';
import type { ManagementConfig } from '../config/management-config';
import type { MessageComposer } from '../notifications/notification-worker';
import { monthlyReportComposer } from '../reports/monthly-report-composer';
import { MonthlyReportQueue } from '../reports/monthly-report-queue';
import { MonthlyReportsService } from '../reports/monthly-reports.service';
import { storesOn } from './stores-on-manager';

export interface MonthlyReportMailing {
  /** Enqueues reports (the schedule, `reports:send`). */
  queue: MonthlyReportQueue;
  /** For the notification worker: builds a `monthly_report` row's e-mail when it is sent. */
  composers: { monthly_report: MessageComposer };
}

/** The monthly report e-mail's parts on one DataSource (docs/reports.md). */
export function createMonthlyReportMailing(
  dataSource: DataSource,
  config: { reports: Pick<ManagementConfig['reports'], 'catchUpHours' | 'csvMaxRows'> },
): MonthlyReportMailing {
  const { partners, customers, monthlyReports: reportStore, outbox, cdrs } = storesOn(dataSource.manager);
  return {
    queue: new MonthlyReportQueue(
      { partners, recipients: reportStore, outbox },
      { catchUpHours: config.reports.catchUpHours },
    ),
    composers: {
      monthly_report: monthlyReportComposer({
        partners,
        customers,
        reports: new MonthlyReportsService(reportStore, customers),
        sources: reportStore,
        cdrs,
        csvMaxRows: config.reports.csvMaxRows,
      }),
    },
  };
}
