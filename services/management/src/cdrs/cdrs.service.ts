import { NotFoundError, zonedDayStart } from '@trackline/domain';
import type { Cdr } from './cdr';
import type { CdrListQuery } from './cdrs.dto';
import type { CdrReadStore } from './cdrs.store';

/**
 * GET /statistics/cdrs (docs/cdrs.md, GET /statistics/cdrs): one customer's records, days in the partner's
 * time zone.
 */
export class CdrsService {
  constructor(private readonly store: CdrReadStore) {}

  async list(
    partner: { id: string; timeZone: string },
    query: CdrListQuery,
  ): Promise<{ cdrs: Cdr[]; total: number }> {
    const by = query.customerId !== null ? { customerId: query.customerId } : { custnr: query.custnr ?? '' };
    const customerId = await this.store.findCustomerId(partner.id, by);
    if (customerId === null)
      throw new NotFoundError(
        'customerId' in by ? `customer ${by.customerId}` : `customer with custnr ${by.custnr}`,
      );
    return this.store.page({
      partnerId: partner.id,
      customerId,
      from: query.fromDate === null ? null : zonedDayStart(query.fromDate, partner.timeZone),
      to: query.toDate === null ? null : zonedDayStart(query.toDate, partner.timeZone),
      limit: query.pageSize,
      offset: query.page * query.pageSize,
    });
  }
}
