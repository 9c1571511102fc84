import { FakeNumbersStore } from './fake-numbers.store';
import { numbersStoreCases } from './numbers.store.cases';

describe('FakeNumbersStore', () => {
  numbersStoreCases(async () => {
    const store = new FakeNumbersStore();
    let partners = 0;
    return {
      store,
      newPartner: async (name) => {
        const id = String(++partners);
        store.partnerNames.set(id, name);
        return id;
      },
    };
  });
});
