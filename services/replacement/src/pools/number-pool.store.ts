import {
  customerMarker,
  partnerKeys,
  poolStatsHour,
  type BindingContext,
  type CustomerSeenEvent,
  type OnExhausted,
  type PartnerKeys,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { allocationArguments, type AllocationRequest } from './allocation-request';
import { defineReplacementScripts, type ReplacementScripts } from './lua-scripts';
import type { PoolTelemetry } from './pool-telemetry';
import { ReleaseOrder } from './release-order';
import { SentCustomerMemory } from './sent-customers.memory';

const MAX_REMEMBERED_PARTNERS = 10_000;

export interface NumberPoolStoreOptions {
  /** Spares the script its check of a customer confirmed moments ago; by default every customer is checked. */
  sentCustomers?: SentCustomerMemory;
  /** Where each allocation's counts go (docs/redis-keys.md, Pool telemetry); without it they are not kept (tests of the script alone). */
  telemetry?: PoolTelemetry;
}

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

  private readonly sentCustomers: SentCustomerMemory;
  private readonly telemetry: PoolTelemetry | undefined;
  private readonly releaseOrder = new ReleaseOrder();
  /**
   * Each partner's key names, made once: building them (ten strings and nine closures) on every
   * request was a visible part of the service's instructions per request (docs/benchmarks.md). Only
   * partners whose signature checked out get here, so the map holds at most the partners there are;
   * the bound only keeps a misconfiguration from growing it without end.
   */
  private readonly keysByPartner = new Map<string, PartnerKeys>();

  constructor(
    redis: RedisConnection,
    private readonly keyPrefix: string,
    options: NumberPoolStoreOptions = {},
  ) {
    this.redis = defineReplacementScripts(redis);
    this.sentCustomers = options.sentCustomers ?? new SentCustomerMemory(0);
    this.telemetry = options.telemetry;
  }

  async allocate(input: AllocationInput): Promise<AllocationResult> {
    const keys = this.keysOf(input.advId);
    const ttlMs = input.sessionTtlSeconds * 1000;
    const { customer } = input;
    const checked =
      customer === null || this.sentCustomers.isCurrent(input.advId, customer)
        ? null
        : { event: customer, marker: customerMarker(customer) };
    // A named web session's key is the only session key the call gets (docs/redis-keys.md,
    // Allocation); an app visitor's session is found by trackingId, so its key is the same whether
    // it is new or not; a first web request's key is its new session's.
    const named = input.context.type === 'web' && input.sessionId !== null;
    const sessionKey =
      input.context.type === 'app'
        ? keys.appSession(input.context.trackingId)
        : keys.webSession(input.sessionId ?? input.newSessionId);
    const request: AllocationRequest = {
      now: input.now,
      sessionTtlMs: ttlMs,
      releaseAt: input.now + ttlMs + input.holdBackSeconds * 1000,
      releaseOffset: this.releaseOrder.next(input.now, input.numbersOnPage.length),
      onExhausted: input.onExhausted,
      newSessionId: named ? '' : input.newSessionId,
      sessionMayExist: named || input.context.type === 'app',
      context: input.context,
      customer: checked,
      numbersOnPage: input.numbersOnPage,
    };
    if (this.telemetry?.holdsHourBefore(poolStatsHour(input.now))) await this.telemetry.flush();
    let reply = await this.run(keys, sessionKey, request);
    if (reply === '') {
      // The named web session has ended (or never was): the script wrote nothing, and the request
      // starts its new session as a first request does, under the new session's key.
      request.newSessionId = input.newSessionId;
      request.sessionMayExist = false;
      reply = await this.run(keys, keys.webSession(input.newSessionId), request);
    }
    if (reply === null) return { kind: 'no_pool' };
    if (checked !== null) this.sentCustomers.confirm(input.advId, checked.event);
    // "<session id> <bindings made> <of those recycled> <number or ''>…" (the script's header).
    const [sessionId, issued, recycled, ...numbers] = reply.split(' ') as [
      string,
      string,
      string,
      ...string[],
    ];
    this.telemetry?.record(input.advId, input.now, {
      newSession: sessionId === input.newSessionId,
      issued: Number(issued),
      recycled: Number(recycled),
    });
    return {
      kind: 'allocated',
      sessionId,
      numbers: numbers.map((number) => (number === '' ? null : number)),
    };
  }

  /** One call of lua/allocate-numbers.lua for the session under `sessionKey`. */
  private async run(
    keys: PartnerKeys,
    sessionKey: string,
    request: AllocationRequest,
  ): Promise<string | null> {
    const args = allocationArguments(request);
    try {
      // Every key a call passes costs Redis as an argument does; the customer's two are passed only
      // when there is a customer to check, the one branch of the script that touches them.
      return request.customer === null
        ? await this.redis.allocateNumbersWithoutCustomer(sessionKey, keys.pool, keys.bindings, ...args)
        : await this.redis.allocateNumbers(
            sessionKey, keys.pool, keys.bindings, keys.customerEvents, keys.customersSent, ...args,
          ); // prettier-ignore
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
  }

  private keysOf(advId: string): PartnerKeys {
    let keys = this.keysByPartner.get(advId);
    if (keys === undefined) {
      if (this.keysByPartner.size >= MAX_REMEMBERED_PARTNERS) this.keysByPartner.clear();
      keys = partnerKeys(this.keyPrefix, advId);
      this.keysByPartner.set(advId, keys);
    }
    return keys;
  }
}
