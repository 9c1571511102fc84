import { decodeCallAttribution, partnerKeys, type CallAttribution } from '@trackline/contracts';

/** The one Redis command the reader needs, so tests and a Cluster client fit alike. */
export interface AttributionRedis {
  get(key: string): Promise<string | null>;
}

export interface CallAttributionReader {
  find(advId: string, callId: string): Promise<CallAttribution | null>;
}

/** Reads what replacement's POST /telephony/route stored under the call's id (docs/switch.md). */
export class RedisCallAttributionReader implements CallAttributionReader {
  constructor(
    private readonly redis: AttributionRedis,
    private readonly keyPrefix: string,
  ) {}

  async find(advId: string, callId: string): Promise<CallAttribution | null> {
    const raw = await this.redis.get(partnerKeys(this.keyPrefix, advId).call(callId));
    return raw === null ? null : decodeCallAttribution(raw);
  }
}
