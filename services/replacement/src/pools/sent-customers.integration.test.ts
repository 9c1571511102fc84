import {
  customerMarker,
  encodeCustomerSeenEvent,
  partnerKeys,
  type CustomerSeenEvent,
} from '@trackline/contracts';
import { uniqueAdvId } from '../test-support/fixtures';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { RedisNumberPoolStore, type AllocationInput } from './number-pool.store';
import { SentCustomerMemory } from './sent-customers.memory';

const NOW = 1_764_201_234_567;
const TTL_MS = 1_000;

/**
 * The customer-seen events a partner's pages give rise to with the store's memory of confirmed
 * markers (docs/redis-keys.md, Customer-seen stream): the same events as without it, except that a
 * marker removed from Redis is noticed up to the memory's ttl later.
 */
describe('customer-seen events with the memory of sent customers', () => {
  let target: RedisTarget;
  let monotonic = 0;

  beforeAll(async () => {
    target = await singleRedisTarget();
  });
  afterAll(async () => {
    await target?.close();
  });

  async function setUp(): Promise<{
    store: RedisNumberPoolStore;
    advId: string;
    events: () => Promise<string[][]>;
  }> {
    monotonic = 0;
    const advId = uniqueAdvId('sent');
    const keys = partnerKeys(target.keyPrefix, advId);
    await target.redis.zadd(keys.pool, '0', '+4791000000', '0', '+4791000001');
    const store = new RedisNumberPoolStore(target.redis, target.keyPrefix, {
      sentCustomers: new SentCustomerMemory(TTL_MS, () => monotonic),
    });
    const events = async () =>
      (await target.redis.xrange(keys.customerEvents, '-', '+')).map(([, fields]) => fields);
    return { store, advId, events };
  }

  function request(advId: string, customer: Partial<CustomerSeenEvent> = {}): AllocationInput {
    return {
      advId,
      now: NOW,
      sessionTtlSeconds: 1_800,
      holdBackSeconds: 0,
      onExhausted: 'recycle',
      sessionId: null,
      newSessionId: crypto.randomUUID(),
      context: {
        type: 'web',
        trackingId: 't',
        fullUrl: 'https://x/',
        fullReferrer: '',
        custnr: 'D-1',
        parameters: {},
      },
      customer: { advId, custnr: 'D-1', custname: 'Dealer', at: NOW, ...customer },
      numbersOnPage: ['+4722334455'],
    };
  }

  it('sends a customer once however often it is seen, and a changed value at once', async () => {
    const { store, advId, events } = await setUp();
    await store.allocate(request(advId));
    await store.allocate(request(advId));
    monotonic += 5 * TTL_MS;
    await store.allocate(request(advId));
    await store.allocate(request(advId, { custname: 'Dealer AS' }));
    expect(await events()).toEqual([
      encodeCustomerSeenEvent(request(advId).customer!),
      encodeCustomerSeenEvent(request(advId, { custname: 'Dealer AS' }).customer!),
    ]);
    expect(await target.redis.hget(partnerKeys(target.keyPrefix, advId).customersSent, 'D-1')).toBe(
      customerMarker(request(advId, { custname: 'Dealer AS' }).customer!),
    );
  });

  it('sends again once a removed marker is out of the memory: within its ttl, not at all', async () => {
    const { store, advId, events } = await setUp();
    const keys = partnerKeys(target.keyPrefix, advId);
    await store.allocate(request(advId));
    // Management removes the custnr after a committed change of the customer.
    await target.redis.hdel(keys.customersSent, 'D-1');
    await store.allocate(request(advId));
    expect(await events()).toHaveLength(1);
    expect(await target.redis.hexists(keys.customersSent, 'D-1')).toBe(0);

    monotonic += TTL_MS;
    await store.allocate(request(advId));
    expect(await events()).toHaveLength(2);
    expect(await target.redis.hget(keys.customersSent, 'D-1')).toBe(customerMarker(request(advId).customer!));
  });

  it('remembers nothing from a request that found no pool', async () => {
    const { store, events } = await setUp();
    const noPool = uniqueAdvId('sent-none');
    expect(await store.allocate(request(noPool))).toEqual({ kind: 'no_pool' });
    const keys = partnerKeys(target.keyPrefix, noPool);
    await target.redis.zadd(keys.pool, '0', '+4791000000');
    await store.allocate(request(noPool));
    expect(await target.redis.xlen(keys.customerEvents)).toBe(1);
    expect(await events()).toEqual([]);
  });

  it("passes the customer's two keys only to a call that checks a customer", async () => {
    const { store, advId, events } = await setUp();
    const keys = partnerKeys(target.keyPrefix, advId);
    const scripts = target.redis as unknown as Record<string, (...args: string[]) => Promise<unknown>>;
    const withCustomer = jest.spyOn(scripts, 'allocateNumbers');
    const without = jest.spyOn(scripts, 'allocateNumbersWithoutCustomer');
    try {
      const first = await store.allocate(request(advId));
      expect(withCustomer).toHaveBeenCalledTimes(1);
      expect(withCustomer.mock.calls[0]!.slice(3, 5)).toEqual([keys.customerEvents, keys.customersSent]);
      // Confirmed: the same session's next request runs the script with the first three keys only.
      const sessionId = first.kind === 'allocated' ? first.sessionId : null;
      const again = await store.allocate({ ...request(advId), sessionId });
      expect(without).toHaveBeenCalledTimes(1);
      expect(without.mock.calls[0]!.slice(0, 3)).toEqual([
        keys.webSession(sessionId!),
        keys.pool,
        keys.bindings,
      ]);
      expect(without.mock.calls[0]![3]).toBe(String(NOW));
      // A named session gets no id for a new one: its key is the only session key passed.
      expect(without.mock.calls[0]![8]).toBe('');
      // Three keys and seven values, then the numbers: nothing of the customer's.
      expect(without.mock.calls[0]!.slice(10)).toEqual(['+4722334455']);
      expect(again).toEqual(first);
      // A changed value is checked (and sent) with all five again.
      await store.allocate({ ...request(advId, { custname: 'Dealer AS' }), sessionId });
      expect(withCustomer).toHaveBeenCalledTimes(2);
      expect((await events()).length).toBe(2);
    } finally {
      withCustomer.mockRestore();
      without.mockRestore();
    }
  });
});
