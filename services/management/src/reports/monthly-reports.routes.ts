import type { RouteDefinition } from '../http/route-definition';
import { parseMonthlyReportQuery } from './monthly-report.dto';
import { REPORT_NAMES, toReportRecord } from './monthly-report-record';
import type { MonthlyReportsService } from './monthly-reports.service';

/**
 * GET /customers/<customer_id>/reports/monthly?month=YYYY-MM, also reachable as
 * /customers/reports/monthly?customer_id=<id>&month=YYYY-MM (docs/reports.md).
 */
export function monthlyReportRoutes(service: MonthlyReportsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/customers/:customerId/reports/monthly',
      handle: async ({ partner, params, query, now }) => {
        const month = parseMonthlyReportQuery(query);
        const report = await service.forPartner(partner, params.customerId ?? '', month, now);
        return { kind: 'records', names: REPORT_NAMES, records: [toReportRecord(report)] };
      },
    },
  ];
}
