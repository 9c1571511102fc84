import { FakePartnersStore } from './fake-partners.store';
import { partnersStoreCases } from './partners.store.cases';

describe('FakePartnersStore', () => {
  partnersStoreCases(async () => new FakePartnersStore());
});
