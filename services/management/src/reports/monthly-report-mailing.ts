import type { DataSource } from 'typeorm';
import { TypeormCdrsStore } from '../cdrs/cdrs.store';
import type { ManagementConfig } from '../config/management-config';
import { TypeormCustomersStore } from '../customers/customers.store';
import type { MessageComposer } from '../notifications/notification-worker';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { TypeormPartnersStore } from '../partners/partners.store';
import { monthlyReportComposer } from './monthly-report-composer';
import { MonthlyReportQueue } from './monthly-report-queue';
import { MonthlyReportsService } from './monthly-reports.service';
import { TypeormMonthlyReportStore } from './monthly-reports.store';

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
  const partners = new TypeormPartnersStore(dataSource.manager);
  const customers = new TypeormCustomersStore(dataSource.manager);
  const reportStore = new TypeormMonthlyReportStore(dataSource.manager);
  const outbox = new TypeormOutboxStore(dataSource.manager);
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
        cdrs: new TypeormCdrsStore(dataSource.manager),
        csvMaxRows: config.reports.csvMaxRows,
      }),
    },
  };
}
