import type { DataSource } from 'typeorm';
import { TypeormCustomersStore, type CustomersStore } from '../customers/customers.store';
import type { CustomerDeletionStores } from '../customers/customers.service';
import { NoSourcesTableCounter } from '../customers/open-sources-counter';
import { typeormUnitOfWork, type UnitOfWork } from '../db/unit-of-work';
import { TypeormPartnersStore, type PartnersStore } from '../partners/partners.store';

/** Every store of the management service, on one initialised DataSource. */
export interface ManagementStores {
  partners: PartnersStore;
  customers: CustomersStore;
  customerDeletion: UnitOfWork<CustomerDeletionStores>;
}

// Composition root, step 2 of config → stores → services → app (STYLE §3).
export function createManagementStores(dataSource: DataSource): ManagementStores {
  return {
    partners: new TypeormPartnersStore(dataSource.manager),
    customers: new TypeormCustomersStore(dataSource.manager),
    customerDeletion: typeormUnitOfWork(dataSource, (manager) => ({
      customers: new TypeormCustomersStore(manager),
      // Until the sources feature adds its table and store; see NoSourcesTableCounter.
      openSources: new NoSourcesTableCounter(),
    })),
  };
}
