import {
  customerMarker,
  decodeBinding,
  encodeCustomerSeenEvent,
  partnerKeys,
  type BindingContext,
  type CustomerSeenEvent,
} from '@trackline/contracts';
import { uniqueAdvId } from '../test-support/fixtures';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { RedisNumberPoolStore, type AllocationInput } from './number-pool.store';

const NOW = 1_764_201_234_567;
const TTL_SECONDS = 1_800;
const HOLD_BACK_SECONDS = 60;

/**
 * The values the store hands lua/allocate-numbers.lua come back out of Redis unchanged: text that
 * looks like a separator, empty strings and multi-byte characters, in every argument the script
 * reads or splits (allocation-request.ts).
 */
describe('allocation script arguments', () => {
  let target: RedisTarget;
  let store: RedisNumberPoolStore;

  beforeAll(async () => {
    target = await singleRedisTarget();
    store = new RedisNumberPoolStore(target.redis, target.keyPrefix);
  });
  afterAll(async () => {
    await target?.close();
  });

  async function partnerWithPool(size: number): Promise<string> {
    const advId = uniqueAdvId('args');
    const members = Array.from({ length: size }, (_, i) => ['0', `+479100000${i}`]).flat();
    await target.redis.zadd(partnerKeys(target.keyPrefix, advId).pool, ...members);
    return advId;
  }

  function input(advId: string, overrides: Partial<AllocationInput> = {}): AllocationInput {
    const context: BindingContext = {
      type: 'web',
      trackingId: 'visitör-1 \u0001|,;',
      fullUrl: 'https://bil.example.no/annonse/ø?q=a%00b&x=\u0000',
      fullReferrer: '',
      custnr: 'Ø-1 "x" \\ \u0001',
      parameters: { custnr: 'Ø-1 "x" \\ \u0001', tom: '', 'nøkkel 😀': 'verdi\u0000med NUL' },
    };
    return {
      advId,
      now: NOW,
      sessionTtlSeconds: TTL_SECONDS,
      holdBackSeconds: HOLD_BACK_SECONDS,
      onExhausted: 'recycle',
      sessionId: null,
      newSessionId: crypto.randomUUID(),
      context,
      customer: customerOf(advId, NOW),
      numbersOnPage: ['+4722334455', '+4723456789'],
      ...overrides,
    };
  }

  function customerOf(advId: string, at: number): CustomerSeenEvent {
    return { advId, custnr: 'Ø-1 "x" \\ \u0001', custname: '', custemail: 'å@ø.no 😀', at };
  }

  it('stores the context, the session times, the marker and the event exactly as sent', async () => {
    const advId = await partnerWithPool(3);
    const keys = partnerKeys(target.keyPrefix, advId);
    const sent = input(advId);
    const result = await store.allocate(sent);
    if (result.kind !== 'allocated') throw new Error('no pool');
    expect(result.sessionId).toBe(sent.newSessionId);
    const [first, second] = result.numbers;
    expect(first).not.toBeNull();
    expect(second).not.toBe(first);

    const binding = decodeBinding((await target.redis.hget(keys.bindings, first!))!);
    expect(binding).toEqual({
      sessionId: sent.newSessionId,
      numberOnPage: '+4722334455',
      recycled: false,
      boundAt: NOW,
      context: sent.context,
    });
    const session = await target.redis.hgetall(keys.webSession(sent.newSessionId));
    expect(session).toEqual({
      id: sent.newSessionId,
      x: String(NOW + TTL_SECONDS * 1000),
      '+4722334455': first,
      '+4723456789': second,
    });
    expect(await target.redis.zscore(keys.pool, first!)).toBe(
      String(NOW + (TTL_SECONDS + HOLD_BACK_SECONDS) * 1000),
    );
    expect(await target.redis.hget(keys.customersSent, sent.customer!.custnr)).toBe(
      customerMarker(sent.customer!),
    );
    // The same customer again: the stored marker matches, so no second event.
    await store.allocate({ ...sent, sessionId: sent.newSessionId, newSessionId: crypto.randomUUID() });
    const entries = await target.redis.xrange(keys.customerEvents, '-', '+');
    expect(entries.map(([, fields]) => fields)).toEqual([encodeCustomerSeenEvent(sent.customer!)]);
  });

  it('keeps a session until the millisecond it ends, on the request clock, and then starts a new one', async () => {
    const advId = await partnerWithPool(3);
    const first = await store.allocate(input(advId, { customer: null }));
    if (first.kind !== 'allocated') throw new Error('no pool');
    const end = NOW + TTL_SECONDS * 1000;

    const justBefore = await store.allocate(
      input(advId, { now: end - 1, sessionId: first.sessionId, customer: null }),
    );
    expect(justBefore).toEqual(first);

    const laterEnd = end - 1 + TTL_SECONDS * 1000;
    const atEnd = input(advId, { now: laterEnd, sessionId: first.sessionId, customer: null });
    const ended = await store.allocate(atEnd);
    expect(ended.kind === 'allocated' && ended.sessionId).toBe(atEnd.newSessionId);
  });

  it('takes on_exhausted from the mode: original keeps the page number, recycle takes a live one', async () => {
    const advId = await partnerWithPool(1);
    await store.allocate(input(advId, { numbersOnPage: ['+4722334455'] }));
    const original = await store.allocate(
      input(advId, { onExhausted: 'original', numbersOnPage: ['+4722334455'] }),
    );
    expect(original.kind === 'allocated' && original.numbers).toEqual([null]);
    const recycled = await store.allocate(input(advId, { numbersOnPage: ['+4722334455'] }));
    expect(recycled.kind === 'allocated' && recycled.numbers).toEqual(['+4791000000']);
  });

  it('refuses a NUL in a customer field before anything reaches Redis', async () => {
    const advId = await partnerWithPool(1);
    const customer = { ...customerOf(advId, NOW), custname: 'a\u0000b' };
    await expect(store.allocate(input(advId, { customer }))).rejects.toThrow(RangeError);
    expect(await target.redis.exists(partnerKeys(target.keyPrefix, advId).bindings)).toBe(0);
  });
});
