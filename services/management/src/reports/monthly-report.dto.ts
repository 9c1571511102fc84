import { parseCalendarMonth } from '@trackline/domain';
import { Parsed } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';

/** GET …/reports/monthly: the month, and nothing else (the customer is in the path). */
export class MonthlyReportQueryDto {
  @Parsed('required', (value) => parseCalendarMonth('month', value), 'YYYY-MM')
  month?: string;
}

/** The month as `YYYY-MM`. */
export function parseMonthlyReportQuery(query: Record<string, string>): string {
  const dto = validateDto(MonthlyReportQueryDto, query, 'is not a known query parameter');
  return parseCalendarMonth('month', dto.month);
}
