import { monthSpan, previousMonth } from '@trackline/domain';
import type { Cdr } from '../cdrs/cdr';
import type { CdrReadStore } from '../cdrs/cdrs.store';
import type { CustomersStore } from '../customers/customers.store';
import { PermanentDeliveryError, type OutboundNotification } from '../notifications/delivery-channel';
import type { MessageComposer } from '../notifications/notification-worker';
import type { ClaimedNotification } from '../notifications/outbox.store';
import type { Partner } from '../partners/partner';
import type { MonthlyReportsService } from './monthly-reports.service';
import type { MonthlyReportStore } from './monthly-reports.store';
import { renderDailyChart } from './report-chart';
import { reportCsv } from './report-csv';
import { renderReportEmail } from './report-email';

export interface ReportComposerDeps {
  partners: { list(): Promise<Partner[]> };
  customers: Pick<CustomersStore, 'findById'>;
  reports: Pick<MonthlyReportsService, 'compute'>;
  sources: Pick<MonthlyReportStore, 'sourceNames'>;
  cdrs: Pick<CdrReadStore, 'page'>;
  /** The CSV lists at most this many calls (REPORTS_CSV_MAX_ROWS). */
  csvMaxRows: number;
}

const CHART_CID = 'daily-chart@trackline';
const PAGE = 1_000;

/**
 * Builds a monthly report e-mail when the worker sends it (docs/reports.md): the figures as they
 * are then, the chart, the CSV of the month's calls. Nothing but the row's ids is stored, so a
 * retry sends the same month with the same key and Message-ID. A customer that is gone, or has
 * switched the report off since the row was queued, gets nothing (the row goes dead, saying why).
 */
export function monthlyReportComposer(deps: ReportComposerDeps): MessageComposer {
  return async (row: ClaimedNotification): Promise<OutboundNotification> => {
    const ids = row.payload.report;
    if (ids === undefined) throw new PermanentDeliveryError('monthly report row without its report');
    const partner = (await deps.partners.list()).find((candidate) => candidate.id === ids.partnerId);
    if (partner === undefined) throw new PermanentDeliveryError(`partner ${ids.partnerId} no longer exists`);
    const customer = await deps.customers.findById(partner.id, ids.customerId);
    if (customer === null) throw new PermanentDeliveryError(`customer ${ids.customerId} no longer exists`);
    if (!customer.receiveMonthlyReport)
      throw new PermanentDeliveryError(`customer ${ids.customerId} has switched the monthly report off`);

    const [report, before] = await Promise.all([
      deps.reports.compute(partner, customer.id, ids.month),
      deps.reports.compute(partner, customer.id, previousMonth(ids.month)),
    ]);
    const span = monthSpan(ids.month, partner.timeZone);
    const calls: Cdr[] = [];
    while (calls.length < deps.csvMaxRows) {
      const { cdrs } = await deps.cdrs.page({
        partnerId: partner.id,
        customerId: customer.id,
        from: span.from,
        to: span.to,
        limit: Math.min(PAGE, deps.csvMaxRows - calls.length),
        offset: calls.length,
      });
      calls.push(...cdrs);
      if (cdrs.length < PAGE) break;
    }
    const sourceNames = new Map(
      (await deps.sources.sourceNames(partner.id, customer.id)).map((source) => [
        source.sourceId,
        source.name,
      ]),
    );
    const csvFilename = `calls-${ids.month}.csv`;
    const email = renderReportEmail(report, {
      customerName: customer.name,
      previous: { month: before.month, calls: before.calls, leads: before.leads },
      chartCid: CHART_CID,
      csv: { filename: csvFilename, rows: calls.length, truncated: calls.length < report.calls },
    });
    return {
      id: row.id,
      deliveryKey: row.deliveryKey,
      channel: row.channel,
      kind: row.kind,
      recipient: row.recipient,
      subject: email.subject,
      text: email.text,
      html: email.html,
      attachments: [
        {
          filename: `calls-per-day-${ids.month}.png`,
          contentType: 'image/png',
          content: renderDailyChart(report.days),
          cid: CHART_CID,
        },
        {
          filename: csvFilename,
          contentType: 'text/csv; charset=utf-8',
          content: Buffer.from(
            reportCsv(calls, {
              timeZone: partner.timeZone,
              showFullAnum: partner.showFullAnum,
              sourceNames,
            }),
            'utf8',
          ),
        },
      ],
    };
  };
}
