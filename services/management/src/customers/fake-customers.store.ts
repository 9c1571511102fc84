import { ValidationError } from '@trackline/domain';
import type { Customer, CustomerChanges, CustomerFilter, CustomerValues } from './customer';
import {
  mergeSightings,
  type CustomerSeen,
  type CustomerSeenOutcome,
  type CustomerSeenRow,
  type CustomerSighting,
  type CustomersStore,
  type EnsuredCustomer,
} from './customers.store';

/** In-memory CustomersStore for unit tests; enforces custnr uniqueness per partner like the database. */
export class FakeCustomersStore implements CustomersStore {
  private readonly customers: Customer[] = [];
  private nextId = 1;

  constructor(private readonly clock: () => Date = () => new Date(0)) {}

  async list(partnerId: string, filter: CustomerFilter): Promise<Customer[]> {
    return structuredClone(
      this.customers.filter(
        (customer) =>
          customer.partnerId === partnerId &&
          (filter.custnr === undefined || customer.custnr === filter.custnr),
      ),
    );
  }

  async findById(partnerId: string, id: string): Promise<Customer | null> {
    const customer = this.find(partnerId, id);
    return customer === undefined ? null : structuredClone(customer);
  }

  async insert(partnerId: string, values: CustomerValues): Promise<Customer> {
    this.assertCustnrFree(partnerId, values.custnr, undefined);
    const id = this.nextId++;
    const now = this.clock();
    const customer: Customer = {
      ...structuredClone(values),
      id: String(id),
      partnerId,
      uuid: `00000000-0000-4000-8000-${id.toString().padStart(12, '0')}`,
      created: now,
      modified: now,
    };
    this.customers.push(customer);
    return structuredClone(customer);
  }

  async update(partnerId: string, id: string, changes: CustomerChanges): Promise<Customer | null> {
    const customer = this.find(partnerId, id);
    if (customer === undefined) return null;
    if (changes.custnr !== undefined) this.assertCustnrFree(partnerId, changes.custnr, id);
    const { customFields, ...columns } = structuredClone(changes);
    Object.assign(customer, columns, { modified: this.clock() });
    if (customFields !== undefined) customer.customFields = { ...customer.customFields, ...customFields };
    return structuredClone(customer);
  }

  async delete(partnerId: string, id: string): Promise<void> {
    const index = this.customers.findIndex(
      (customer) => customer.partnerId === partnerId && customer.id === id,
    );
    if (index >= 0) this.customers.splice(index, 1);
  }

  async upsertSeen(partnerId: string, custnr: string, seen: CustomerSeen): Promise<CustomerSeenOutcome> {
    const existing = this.customers.find(
      (customer) => customer.partnerId === partnerId && customer.custnr === custnr,
    );
    if (existing === undefined) {
      await this.insert(partnerId, {
        name: seen.name ?? custnr,
        custnr,
        corporateid: null,
        email: seen.email ?? null,
        dncsClassName: null,
        receiveMonthlyReport: false,
        serviceCallerId: false,
        customFields: {},
      });
      return 'created';
    }
    const changes: CustomerChanges = {};
    if (seen.name !== undefined && seen.name !== existing.name) changes.name = seen.name;
    if (seen.email !== undefined && seen.email !== existing.email) changes.email = seen.email;
    if (Object.keys(changes).length === 0) return 'unchanged';
    await this.update(partnerId, existing.id, changes);
    return 'updated';
  }

  async ensureSeen(partnerId: string, custnr: string, seen: CustomerSeen): Promise<EnsuredCustomer> {
    const existing = this.customers.find(
      (customer) => customer.partnerId === partnerId && customer.custnr === custnr,
    );
    if (existing !== undefined) return { id: existing.id, created: false };
    await this.upsertSeen(partnerId, custnr, seen);
    const created = this.customers.find(
      (customer) => customer.partnerId === partnerId && customer.custnr === custnr,
    )!;
    return { id: created.id, created: true };
  }

  async upsertSeenMany(
    partnerId: string,
    sightings: readonly CustomerSighting[],
  ): Promise<CustomerSeenRow[]> {
    const rows: CustomerSeenRow[] = [];
    for (const { custnr, seen } of mergeSightings(sightings)) {
      const outcome = await this.upsertSeen(partnerId, custnr, seen);
      const [customer] = await this.list(partnerId, { custnr });
      rows.push({ custnr, id: customer!.id, outcome });
    }
    return rows;
  }

  private find(partnerId: string, id: string): Customer | undefined {
    return this.customers.find((customer) => customer.partnerId === partnerId && customer.id === id);
  }

  private assertCustnrFree(partnerId: string, custnr: string, ownId: string | undefined): void {
    const taken = this.customers.some(
      (customer) => customer.partnerId === partnerId && customer.custnr === custnr && customer.id !== ownId,
    );
    if (taken) throw new ValidationError('custnr', 'is already used by another customer');
  }
}
