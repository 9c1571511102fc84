import { ForbiddenError, NotFoundError } from '@trackline/domain';
import type { UnitOfWork } from '../db/unit-of-work';
import type { CustomerChangeListener } from './customer-change-listener';
import type { Customer, CustomerChanges, CustomerFilter, CustomerValues } from './customer';
import type { CustomersStore } from './customers.store';
import type { CustomerCallRecords } from './customer-call-records';
import type { OpenSourcesCounter } from './open-sources-counter';
import { isBigintId } from '../validation/record-id';
import type { WebhookEventQueue } from '../webhooks/webhook-events';

/** What creating a customer touches inside one transaction: the row and its webhooks. */
export interface CustomerCreationStores {
  customers: CustomersStore;
  webhooks: WebhookEventQueue;
}

/** What deleting a customer touches inside one transaction. */
export interface CustomerDeletionStores {
  customers: CustomersStore;
  openSources: OpenSourcesCounter;
  callRecords: CustomerCallRecords;
}

// Ids are bigint identities; anything else cannot name a customer, so it is "not found" (docs/partner-api.md,
// Errors), never a 400 and never a query with an out-of-range number.

export class CustomersService {
  constructor(
    private readonly customers: CustomersStore,
    private readonly deletion: UnitOfWork<CustomerDeletionStores>,
    private readonly creation: UnitOfWork<CustomerCreationStores>,
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

  /** The `customer.created` webhooks (docs/webhooks.md) commit with the customer. */
  create(partnerId: string, values: CustomerValues): Promise<Customer> {
    return this.creation.run(async ({ customers, webhooks }) => {
      const customer = await customers.insert(partnerId, values);
      await webhooks.enqueue(partnerId, [{ type: 'customer.created', customerId: customer.id }]);
      return customer;
    });
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

  /**
   * Refused with 403 while the customer has open sources, closed sources whose number is still held
   * back, or call records: a deleted customer's records could no longer be listed (docs/cdrs.md,
   * "Deleting a customer"). Returns the deleted customer.
   */
  async delete(partnerId: string, customerId: string, now: Date): Promise<Customer> {
    const id = requireCustomerId(customerId);
    // The row lock keeps a source from being opened, and a call record from being stored (ingestion
    // takes a key-share lock on its customer), between the checks and the delete.
    const deleted = await this.deletion.run(async ({ customers, openSources, callRecords }) => {
      const customer = await customers.findById(partnerId, id, { lock: true });
      if (customer === null) throw notFound(customerId);
      const open = await openSources.countOpenSources(partnerId, id);
      if (open > 0) {
        throw new ForbiddenError(
          `Customer ${customerId} has ${open} open source${open === 1 ? '' : 's'}; close them first`,
        );
      }
      const heldBack = await openSources.countHeldBackSources(partnerId, id, now);
      if (heldBack > 0) {
        throw new ForbiddenError(
          `Customer ${customerId} has ${heldBack} closed source${heldBack === 1 ? '' : 's'} whose number is still held back; calls to it are still the customer's`,
        );
      }
      if (await callRecords.hasCallRecords(partnerId, id)) {
        throw new ForbiddenError(
          `Customer ${customerId} has call records; they stay listable under the customer, so it cannot be deleted`,
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
