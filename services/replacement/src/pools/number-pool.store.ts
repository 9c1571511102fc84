import {
  CUSTOMER_EVENTS_MAXLEN,
  customerMarker,
  encodeBindingContext,
  encodeCustomerSeenEvent,
  partnerKeys,
  poolStatsHour,
  type BindingContext,
  type CustomerSeenEvent,
  type OnExhausted,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { defineReplacementScripts, type ReplacementScripts } from './lua-scripts';

export interface AllocationInput {
  advId: string;
  /** Epoch ms; the rules run on this time, never on the server's clock. */
  now: number;
  sessionTtlSeconds: number;
  holdBackSeconds: number;
  onExhausted: OnExhausted;
  /** The session the request names: a web sessionId (possibly unknown) or null. */
  sessionId: string | null;
  /** Id to use when a new session starts. */
  newSessionId: string;
  context: BindingContext;
  /** Present when parameters.custnr is. */
  customer: CustomerSeenEvent | null;
  /** The numbers on the page, E.164, in request order. */
  numbersOnPage: string[];
}

export type AllocationResult =
  | { kind: 'no_pool' }
  /** One entry per number on the page: the pool number, or null when the page keeps its own. */
  | { kind: 'allocated'; sessionId: string; numbers: Array<string | null> };

export interface NumberPoolStore {
  allocate(input: AllocationInput): Promise<AllocationResult>;
}

/** Runs lua/allocate-numbers.lua: one round trip, atomic for all numbers of a request. */
export class RedisNumberPoolStore implements NumberPoolStore {
  private readonly redis: RedisConnection & ReplacementScripts;

  constructor(
    redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {
    this.redis = defineReplacementScripts(redis);
  }

  async allocate(input: AllocationInput): Promise<AllocationResult> {
    const keys = partnerKeys(this.keyPrefix, input.advId);
    // An app visitor's session is found by trackingId, so its key is the same whether it is new or not.
    const fresh =
      input.context.type === 'app'
        ? keys.appSession(input.context.trackingId)
        : keys.webSession(input.newSessionId);
    const requested =
      input.context.type === 'web' && input.sessionId !== null ? keys.webSession(input.sessionId) : fresh;
    const event = input.customer === null ? '' : joinEventFields(encodeCustomerSeenEvent(input.customer));
    const ttlMs = input.sessionTtlSeconds * 1000;
    let reply: string[];
    try {
      reply = await this.redis.allocateNumbers(
        requested, fresh, keys.pool, keys.bindings, keys.customerEvents, keys.customersSent,
        keys.poolStats(poolStatsHour(input.now)),
        input.now,
        ttlMs,
        input.now + ttlMs + input.holdBackSeconds * 1000,
        input.now + ttlMs,
        input.onExhausted,
        input.newSessionId,
        encodeBindingContext(input.context),
        input.customer === null ? '' : input.customer.custnr,
        input.customer === null ? '' : customerMarker(input.customer),
        CUSTOMER_EVENTS_MAXLEN,
        event,
        requested === fresh && input.context.type === 'web' ? '0' : '1',
        ...input.numbersOnPage,
      ); // prettier-ignore
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
    if (reply[0] === 'no_pool') return { kind: 'no_pool' };
    return {
      kind: 'allocated',
      sessionId: reply[1]!,
      numbers: reply.slice(2).map((number) => (number === '' ? null : number)),
    };
  }
}

/** The script splits the event's fields at NUL, which no field can hold: the request parsers refuse it. */
function joinEventFields(fields: string[]): string {
  if (fields.some((field) => field.includes('\u0000'))) {
    throw new RangeError('a customer-seen event field holds a NUL character');
  }
  return fields.join('\u0000');
}
