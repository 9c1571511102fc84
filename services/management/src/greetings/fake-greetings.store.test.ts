import { FakeGreetingsStore } from './fake-greetings.store';
import { greetingsStoreCases } from './greetings.store.cases';

describe('FakeGreetingsStore', () => {
  greetingsStoreCases(async () => {
    let customers = 0;
    return {
      store: new FakeGreetingsStore(),
      partnerId: '1',
      otherPartnerId: '2',
      newCustomer: async () => String(++customers),
    };
  });
});
