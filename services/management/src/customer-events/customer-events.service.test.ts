import { ValidationError } from '@trackline/domain';
import { encodeCustomerSeenEvent } from '@trackline/contracts';
import { FakeCustomersStore } from '../customers/fake-customers.store';
import type { CustomerSighting } from '../customers/customers.store';
import { inlineUnitOfWork } from '../db/unit-of-work';
import type { WebhookEvent } from '../webhooks/webhook';
import { CustomerEventsService } from './customer-events.service';

const acme = { id: '1', name: 'acme' };
const noWebhooks = { enqueue: async () => undefined };

describe('CustomerEventsService', () => {
  let store: FakeCustomersStore;
  let service: CustomerEventsService;

  let queued: Array<{ partnerId: string; events: readonly WebhookEvent[] }>;

  beforeEach(() => {
    store = new FakeCustomersStore();
    queued = [];
    const webhooks = {
      enqueue: async (partnerId: string, events: readonly WebhookEvent[]) =>
        void queued.push({ partnerId, events }),
    };
    service = new CustomerEventsService(inlineUnitOfWork({ customers: store, webhooks }));
  });

  it('queues customer.created for the customers a batch created, and only for those', async () => {
    const event = (custnr: string, at: number) =>
      encodeCustomerSeenEvent({ advId: 'acme', custnr, custname: 'Kari', at });
    await service.apply(acme, event('K-1', 1));
    await service.applyBatch(acme, [event('K-1', 2), event('K-2', 3), event('K-3', 4)]);
    const [k1, k2, k3] = await store.list('1', {});
    expect(queued).toEqual([
      { partnerId: '1', events: [{ type: 'customer.created', customerId: k1!.id }] },
      {
        partnerId: '1',
        events: [
          { type: 'customer.created', customerId: k2!.id },
          { type: 'customer.created', customerId: k3!.id },
        ],
      },
    ]);
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
    const refusing = new CustomerEventsService(
      inlineUnitOfWork({
        webhooks: noWebhooks,
        customers: {
          upsertSeenMany: () => Promise.reject(new ValidationError('customer', 'cannot be stored (NUL)')),
        },
      }),
    );
    const fields = encodeCustomerSeenEvent({ advId: 'acme', custnr: 'K-1', at: 1 });
    expect(await refusing.apply(acme, fields)).toEqual({
      kind: 'malformed',
      problem: 'customer: cannot be stored (NUL)',
    });
  });

  it('lets a database failure through, so the entry stays pending', async () => {
    const failing = new CustomerEventsService(
      inlineUnitOfWork({
        webhooks: noWebhooks,
        customers: { upsertSeenMany: () => Promise.reject(new Error('connection refused')) },
      }),
    );
    const fields = encodeCustomerSeenEvent({ advId: 'acme', custnr: 'K-1', at: 1 });
    await expect(failing.apply(acme, fields)).rejects.toThrow('connection refused');
  });

  it('applies a batch in one store call and still applies the storable entries when one can never be stored', async () => {
    const calls: number[] = [];
    const picky = {
      upsertSeenMany: (partnerId: string, sightings: readonly CustomerSighting[]) => {
        calls.push(sightings.length);
        if (sightings.some((s) => s.custnr.includes('\u0000'))) {
          return Promise.reject(new ValidationError('customer', 'cannot be stored (NUL)'));
        }
        return store.upsertSeenMany(partnerId, sightings);
      },
    };
    const batched = new CustomerEventsService(inlineUnitOfWork({ customers: picky, webhooks: noWebhooks }));
    const event = (custnr: string, custname: string) =>
      encodeCustomerSeenEvent({ advId: 'acme', custnr, custname, at: 1 });
    expect(await batched.applyBatch(acme, [event('K-1', 'A'), event('K-2', 'B'), event('K-1', 'C')])).toEqual(
      [
        { kind: 'applied', custnr: 'K-1', outcome: 'created', rejected: [] },
        { kind: 'applied', custnr: 'K-2', outcome: 'created', rejected: [] },
        { kind: 'applied', custnr: 'K-1', outcome: 'created', rejected: [] },
      ],
    );
    expect(calls).toEqual([3]);
    expect(await store.list('1', { custnr: 'K-1' })).toMatchObject([{ name: 'C' }]);

    calls.length = 0;
    expect(await batched.applyBatch(acme, [event('K-3', 'D'), event('X-\u0000', 'E'), ['odd']])).toEqual([
      { kind: 'applied', custnr: 'K-3', outcome: 'created', rejected: [] },
      { kind: 'malformed', problem: 'customer: cannot be stored (NUL)' },
      expect.objectContaining({ kind: 'malformed' }),
    ]);
    expect(calls).toEqual([2, 1, 1]);
  });
});
