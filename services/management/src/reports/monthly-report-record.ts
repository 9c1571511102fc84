import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { MonthlyReport } from './monthly-report';

export const REPORT_NAMES: ResourceNames = { plural: 'reports', singular: 'report' };

/** The API's report record: every count a string, like every record of the API. */
export function toReportRecord(report: MonthlyReport): ApiRecord {
  return {
    customer_id: report.customerId,
    month: report.month,
    calls: String(report.calls),
    answered: String(report.answered),
    missed: String(report.missed),
    voicemails: String(report.voicemails),
    leads: String(report.leads),
    commission: report.commission,
    sources: report.sources.map((source) => ({
      source_id: source.sourceId,
      name: source.name,
      calls: String(source.calls),
      answered: String(source.answered),
      leads: String(source.leads),
      commission: source.commission,
    })),
    days: report.days.map((day) => ({
      date: day.date,
      calls: String(day.calls),
      answered: String(day.answered),
    })),
    outcomes: report.outcomes.map((line) => ({
      status: line.status,
      calls: String(line.calls),
      sums: line.sums.map((sum) => ({ currency: sum.currency, value: sum.value })),
    })),
  };
}
