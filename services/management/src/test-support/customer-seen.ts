import { encodeCustomerSeenEvent } from '@trackline/contracts';
import type { DataSource } from 'typeorm';
import { CustomerEventsService, type StreamPartner } from '../customer-events/customer-events.service';
import type { CustomerSeen, CustomerSeenOutcome } from '../customers/customers.store';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { customerSightingStores } from '../composition/management-stores';

/**
 * A customer-seen stream entry applied the way the consumer applies it (one batch, its transaction
 * with the `customer.created` deliveries), without a stream: for webhook tests.
 */
export function customerSeenByConsumer(dataSource: DataSource): {
  seen(partner: StreamPartner, custnr: string, seen?: CustomerSeen): Promise<CustomerSeenOutcome>;
} {
  const events = new CustomerEventsService(typeormUnitOfWork(dataSource, customerSightingStores));
  return {
    async seen(partner, custnr, seen = {}) {
      const fields = encodeCustomerSeenEvent({
        advId: partner.name,
        custnr,
        at: 0,
        ...(seen.name === undefined ? {} : { custname: seen.name }),
        ...(seen.email === undefined ? {} : { custemail: seen.email }),
      });
      const result = await events.apply(partner, fields);
      if (result.kind !== 'applied') throw new Error(`not applied: ${result.problem}`);
      return result.outcome;
    },
  };
}
