import { FakeSourcesStore } from './fake-sources.store';
import { sourcesStoreCases } from './sources.store.cases';

describe('FakeSourcesStore', () => {
  sourcesStoreCases(async () => {
    let customers = 0;
    let numbers = 0;
    return {
      store: new FakeSourcesStore(),
      partnerId: '1',
      otherPartnerId: '2',
      newCustomer: async () => String(++customers),
      newNumber: async () => `+4722${String(++numbers).padStart(6, '0')}`,
      // The fake derives the hold-back from closed_at, as closing a source sets it.
      holdBack: async () => {},
    };
  });
});
