import { FakeCustomersStore } from './fake-customers.store';
import { customersStoreCases } from './customers.store.cases';

describe('FakeCustomersStore', () => {
  customersStoreCases(async () => {
    let partners = 0;
    return { store: new FakeCustomersStore(), newPartner: async () => String(++partners) };
  });
});
