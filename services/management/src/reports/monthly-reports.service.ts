import { monthOf, monthSpan, NotFoundError, ValidationError } from '@trackline/domain';
import type { CustomersStore } from '../customers/customers.store';
import { isBigintId } from '../validation/record-id';
import { assembleReport } from './monthly-report-assembly';
import type { MonthlyReport } from './monthly-report';
import type { MonthlyReportStore } from './monthly-reports.store';

/** The monthly report's figures (docs/reports.md), for the API and the e-mail alike. */
export class MonthlyReportsService {
  constructor(
    private readonly store: MonthlyReportStore,
    private readonly customers: Pick<CustomersStore, 'findById'>,
  ) {}

  /**
   * GET /customers/<id>/reports/monthly. The current month answers the month so far; a later one
   * is refused, as it has no calls yet and a partner asking for it has the wrong month.
   */
  async forPartner(
    partner: { id: string; timeZone: string },
    customerId: string,
    month: string,
    now: Date,
  ): Promise<MonthlyReport> {
    if (!isBigintId(customerId)) throw new NotFoundError(`customer ${customerId}`);
    const customer = await this.customers.findById(partner.id, customerId);
    if (customer === null) throw new NotFoundError(`customer ${customerId}`);
    const current = monthOf(now, partner.timeZone);
    if (month > current)
      throw new ValidationError('month', `must not be later than the current month (${current})`);
    return this.compute(partner, customerId, month);
  }

  /** The figures of a customer the caller has already found. */
  async compute(
    partner: { id: string; timeZone: string },
    customerId: string,
    month: string,
  ): Promise<MonthlyReport> {
    const span = monthSpan(month, partner.timeZone);
    const [rows, sources, outcomes] = await Promise.all([
      this.store.figures({
        partnerId: partner.id,
        customerId,
        from: span.from,
        to: span.to,
        timeZone: partner.timeZone,
      }),
      this.store.sourceNames(partner.id, customerId),
      this.store.outcomeFigures({ partnerId: partner.id, customerId, from: span.from, to: span.to }),
    ]);
    return assembleReport({
      customerId,
      month,
      timeZone: partner.timeZone,
      days: span.days,
      rows,
      sources,
      outcomes,
    });
  }
}
