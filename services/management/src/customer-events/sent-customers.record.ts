import { isKeySafeAdvId, partnerKeys } from '@trackline/contracts';
import type { Logger } from '@trackline/platform';
import type { CustomerChangeListener } from '../customers/customer-change-listener';
import type { PartnerNames } from '../partners/partners.store';

export interface SentCustomersRedis {
  hdel(key: string, ...fields: string[]): Promise<number>;
}

/**
 * The replacement service's per-partner record of the customer values it last sent
 * (`<T>:customers:sent`, custnr → marker). Management removes a custnr from it after a committed
 * change of that customer, so a request naming the custnr is sent again (within the replacement
 * service's memory of confirmed markers, ≤ 1 s: docs/redis-keys.md, Customer-seen stream). When Redis fails
 * the error is logged; the record's hourly resend (CUSTOMER_SEEN_RESEND_MS) repairs it.
 */
export class RedisSentCustomersRecord implements CustomerChangeListener {
  constructor(
    private readonly redis: SentCustomersRedis,
    private readonly keyPrefix: string,
    private readonly partners: PartnerNames,
    private readonly logger: Logger,
  ) {}

  async customersChanged(partnerId: string, custnrs: string[]): Promise<void> {
    if (custnrs.length === 0) return;
    try {
      const advId = await this.partners.nameOf(partnerId);
      if (advId === null || !isKeySafeAdvId(advId)) return;
      await this.redis.hdel(partnerKeys(this.keyPrefix, advId).customersSent, ...custnrs);
    } catch (error) {
      this.logger.error(
        { err: error, partnerId, custnrs },
        'customer-seen record not cleared after a committed customer change; the hourly resend repairs it',
      );
    }
  }
}
