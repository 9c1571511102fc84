import {
  CALL_ATTRIBUTION_TTL_SECONDS,
  encodeDialOutcome,
  partnerKeys,
  type DialOutcome,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../../http/replacement-errors';

export interface DialOutcomeStore {
  save(advId: string, outcome: DialOutcome): Promise<void>;
}

/** Keeps the dial outcome beside the call's attribution, for management's call record (docs/telephony.md). */
export class RedisDialOutcomeStore implements DialOutcomeStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async save(advId: string, outcome: DialOutcome): Promise<void> {
    const key = partnerKeys(this.keyPrefix, advId).callDial(outcome.callId);
    try {
      await this.redis.set(key, encodeDialOutcome(outcome), 'EX', CALL_ATTRIBUTION_TTL_SECONDS);
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
  }
}
