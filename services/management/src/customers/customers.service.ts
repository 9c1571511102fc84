import { ForbiddenError, NotFoundError } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type { CustomerChangeListener } from './customer-change-listener';
import type { Customer, CustomerChanges, CustomerFilter, CustomerValues } from './customer';
import type { CustomersStore } from './customers.store';
import type { OpenSourcesCounter } from './open-sources-counter';
import { isBigintId } from '../validation/record-id';

/** What deleting a customer touches inside one transaction. */
export interface CustomerDeletionStores {
  customers: CustomersStore;
  openSources: OpenSourcesCounter;
}

// Ids are bigint identities; anything else cannot name a customer, so it is "not found" (SPEC §6),
// never a 400 and never a query with an out-of-range number.

export class CustomersService {
  constructor(
    private readonly customers: CustomersStore,
    private readonly deletion: UnitOfWork<CustomerDeletionStores>,
    private readonly listeners: CustomerChangeListener[] = [],
  ) {}

  list(partnerId: string, filter: CustomerFilter): Promise<Customer[]> {
    return this.customers.list(partnerId, filter);
  }

  async get(partnerId: string, customerId: string): Promise<Customer> {
    const id = requireCustomerId(customerId);
    const customer = await this.customers.findById(partnerId, id);
    if (customer === null) throw notFound(customerId);
    return customer;
  }

  create(partnerId: string, values: CustomerValues): Promise<Customer> {
    return this.customers.insert(partnerId, values);
  }

  async update(partnerId: string, customerId: string, changes: CustomerChanges): Promise<Customer> {
    const id = requireCustomerId(customerId);
    // The custnr it had, when the change may give it another one.
    const before = changes.custnr === undefined ? null : await this.customers.findById(partnerId, id);
    const updated = await this.customers.update(partnerId, id, changes);
    if (updated === null) throw notFound(customerId);
    const custnrs = [updated.custnr];
    if (before !== null && before.custnr !== updated.custnr) custnrs.push(before.custnr);
    await this.changed(partnerId, custnrs);
    return updated;
  }

  /** Refused with 403 while the customer has open sources; returns the deleted customer. */
  async delete(partnerId: string, customerId: string): Promise<Customer> {
    const id = requireCustomerId(customerId);
    // The row lock keeps a source from being opened for this customer between the count and the delete.
    const deleted = await this.deletion.run(async ({ customers, openSources }) => {
      const customer = await customers.findById(partnerId, id, { lock: true });
      if (customer === null) throw notFound(customerId);
      const open = await openSources.countOpenSources(partnerId, id);
      if (open > 0) {
        throw new ForbiddenError(
          `Customer ${customerId} has ${open} open source${open === 1 ? '' : 's'}; close them first`,
        );
      }
      await customers.delete(partnerId, id);
      return customer;
    });
    await this.changed(partnerId, [deleted.custnr]);
    return deleted;
  }

  /** After the commit: the listeners never reject (docs/redis-keys.md "Customer-seen stream"). */
  private async changed(partnerId: string, custnrs: string[]): Promise<void> {
    for (const listener of this.listeners) await listener.customersChanged(partnerId, custnrs);
  }
}

function requireCustomerId(value: string): string {
  if (!isBigintId(value)) throw notFound(value);
  return value;
}

function notFound(customerId: string): NotFoundError {
  return new NotFoundError(`customer ${customerId}`);
}
