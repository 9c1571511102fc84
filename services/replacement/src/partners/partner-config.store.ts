import { decodePartnerConfig, isKeySafeAdvId, partnerKeys, type PartnerConfig } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';

/** Reads the partner settings management projects. Null: no such partner. */
export interface PartnerConfigStore {
  find(advId: string): Promise<PartnerConfig | null>;
}

export class RedisPartnerConfigStore implements PartnerConfigStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async find(advId: string): Promise<PartnerConfig | null> {
    // A name that cannot be a partner's never reaches Redis (and cannot forge a key).
    if (!isKeySafeAdvId(advId)) return null;
    let hash: Record<string, string>;
    try {
      hash = await this.redis.hgetall(partnerKeys(this.keyPrefix, advId).config);
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
    return decodePartnerConfig(hash);
  }
}
