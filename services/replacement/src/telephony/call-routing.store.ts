import {
  CALL_ATTRIBUTION_TTL_SECONDS,
  decodeBinding,
  decodeNumberIndexEntry,
  decodeSourceRoute,
  encodeCallAttribution,
  numberIndexKey,
  partnerKeys,
  type Binding,
  type CallAttribution,
  type NumberIndexEntry,
  type StoredSourceRoute,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';

export interface PoolBinding {
  binding: Binding;
  /** False during hold-back: the session has ended but calls still reach its last binding. */
  sessionLive: boolean;
}

/** What call routing reads and writes (docs/switch.md); Redis only. */
export interface CallRoutingStore {
  findNumber(number: string): Promise<NumberIndexEntry | null>;
  /** The pool number's binding, unless the number is free (no binding, or its hold-back is over). */
  findPoolBinding(advId: string, number: string, now: number): Promise<PoolBinding | null>;
  findStaticRoute(advId: string, destnr: string): Promise<StoredSourceRoute | null>;
  findSourceByPhonenr(advId: string, phonenr: string): Promise<StoredSourceRoute | null>;
  saveAttribution(attribution: CallAttribution): Promise<void>;
}

export class RedisCallRoutingStore implements CallRoutingStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async findNumber(number: string): Promise<NumberIndexEntry | null> {
    const raw = await this.io(() => this.redis.hget(numberIndexKey(this.keyPrefix), number));
    return raw === null ? null : decodeNumberIndexEntry(raw);
  }

  async findPoolBinding(advId: string, number: string, now: number): Promise<PoolBinding | null> {
    const keys = partnerKeys(this.keyPrefix, advId);
    const [freeFrom, raw] = await this.io(() =>
      Promise.all([this.redis.zscore(keys.pool, number), this.redis.hget(keys.bindings, number)]),
    );
    // The pool score is the instant the number is free from; at or past it the binding is history.
    if (freeFrom === null || raw === null || Number(freeFrom) <= now) return null;
    const binding = decodeBinding(raw);
    const sessionKey =
      binding.context.type === 'app'
        ? keys.appSession(binding.context.trackingId)
        : keys.webSession(binding.sessionId);
    const [liveId, endsAt] = await this.io(() => this.redis.hmget(sessionKey, 'id', 'x'));
    return { binding, sessionLive: liveId === binding.sessionId && Number(endsAt) > now };
  }

  async findStaticRoute(advId: string, destnr: string): Promise<StoredSourceRoute | null> {
    const raw = await this.io(() => this.redis.hget(partnerKeys(this.keyPrefix, advId).staticRoutes, destnr));
    return raw === null ? null : decodeSourceRoute(raw);
  }

  async findSourceByPhonenr(advId: string, phonenr: string): Promise<StoredSourceRoute | null> {
    const raw = await this.io(() =>
      this.redis.hget(partnerKeys(this.keyPrefix, advId).sourcesByPhonenr, phonenr),
    );
    return raw === null ? null : decodeSourceRoute(raw);
  }

  async saveAttribution(attribution: CallAttribution): Promise<void> {
    const key = partnerKeys(this.keyPrefix, attribution.advId).call(attribution.callId);
    await this.io(() =>
      this.redis.set(key, encodeCallAttribution(attribution), 'EX', CALL_ATTRIBUTION_TTL_SECONDS),
    );
  }

  private async io<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
  }
}
