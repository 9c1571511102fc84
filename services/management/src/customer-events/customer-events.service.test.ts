import { ValidationError } from '@trackline/domain';
import { encodeCustomerSeenEvent } from '@trackline/contracts';
import { FakeCustomersStore } from '../customers/fake-customers.store';
import { CustomerEventsService } from './customer-events.service';

const acme = { id: '1', name: 'acme' };

describe('CustomerEventsService', () => {
  let store: FakeCustomersStore;
  let service: CustomerEventsService;

  beforeEach(() => {
    store = new FakeCustomersStore();
    service = new CustomerEventsService(store);
  });

  it('creates, then updates, the customer named by custnr', async () => {
    const first = encodeCustomerSeenEvent({
      advId: 'acme',
      custnr: 'K-1',
      custname: 'Kari AS',
      custemail: 'kari@example.no',
      at: 1,
    });
    expect(await service.apply(acme, first)).toEqual({
      kind: 'applied',
      custnr: 'K-1',
      outcome: 'created',
      rejected: [],
    });
    const second = encodeCustomerSeenEvent({
      advId: 'acme',
      custnr: 'K-1',
      custname: 'Kari Nordmann AS',
      at: 2,
    });
    expect(await service.apply(acme, second)).toMatchObject({ kind: 'applied', outcome: 'updated' });
    expect(await store.list('1', {})).toMatchObject([
      { custnr: 'K-1', name: 'Kari Nordmann AS', email: 'kari@example.no' },
    ]);
    expect(await service.apply(acme, second)).toMatchObject({ kind: 'applied', outcome: 'unchanged' });
  });

  it('stores the valid values of an event with an invalid e-mail and reports the rest', async () => {
    const fields = encodeCustomerSeenEvent({
      advId: 'acme',
      custnr: 'K-2',
      custname: 'Ola',
      custemail: 'nope',
      at: 1,
    });
    expect(await service.apply(acme, fields)).toEqual({
      kind: 'applied',
      custnr: 'K-2',
      outcome: 'created',
      rejected: ['custemail: must be a valid e-mail address'],
    });
    expect(await store.list('1', {})).toMatchObject([{ name: 'Ola', email: null }]);
  });

  it('calls an entry malformed when it does not decode, names another partner, or has an unstorable custnr', async () => {
    expect(await service.apply(acme, ['version', '2', 'type', 'customer_seen'])).toMatchObject({
      kind: 'malformed',
    });
    expect(await service.apply(acme, ['odd'])).toMatchObject({ kind: 'malformed' });
    const foreign = encodeCustomerSeenEvent({ advId: 'beta', custnr: 'K-1', at: 1 });
    expect(await service.apply(acme, foreign)).toEqual({
      kind: 'malformed',
      problem: 'adv_id "beta" on the stream of acme',
    });
    const long = encodeCustomerSeenEvent({ advId: 'acme', custnr: '9'.repeat(46), at: 1 });
    expect(await service.apply(acme, long)).toMatchObject({
      kind: 'malformed',
      problem: 'custnr: must be at most 45 characters',
    });
    expect(await store.list('1', {})).toEqual([]);
  });

  it('calls an entry malformed when the store says its values can never be stored', async () => {
    const refusing = new CustomerEventsService({
      upsertSeen: () => Promise.reject(new ValidationError('customer', 'cannot be stored (NUL)')),
    });
    const fields = encodeCustomerSeenEvent({ advId: 'acme', custnr: 'K-1', at: 1 });
    expect(await refusing.apply(acme, fields)).toEqual({
      kind: 'malformed',
      problem: 'customer: cannot be stored (NUL)',
    });
  });

  it('lets a database failure through, so the entry stays pending', async () => {
    const failing = new CustomerEventsService({
      upsertSeen: () => Promise.reject(new Error('connection refused')),
    });
    const fields = encodeCustomerSeenEvent({ advId: 'acme', custnr: 'K-1', at: 1 });
    await expect(failing.apply(acme, fields)).rejects.toThrow('connection refused');
  });
});
