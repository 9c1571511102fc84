import {
  CALL_ATTRIBUTION_TTL_SECONDS,
  encodeDialOutcome,
  partnerKeys,
  type DialOutcome,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { StoreUnavailableError } from '../../resilience/store-unavailable-error';

export interface DialOutcomeStore {
  save(advId: string, outcome: DialOutcome): Promise<void>;
  /** The answering phone pressed 1 on a screened call. */
  accept(advId: string, callId: string): Promise<void>;
  accepted(advId: string, callId: string): Promise<boolean>;
}

/** Keeps the dial outcome beside the call's attribution, for management's call record (docs/telephony.md). */
export class RedisDialOutcomeStore implements DialOutcomeStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  async save(advId: string, outcome: DialOutcome): Promise<void> {
    const key = partnerKeys(this.keyPrefix, advId).callDial(outcome.callId);
    await this.io(() => this.redis.set(key, encodeDialOutcome(outcome), 'EX', CALL_ATTRIBUTION_TTL_SECONDS));
  }

  async accept(advId: string, callId: string): Promise<void> {
    const key = partnerKeys(this.keyPrefix, advId).callScreen(callId);
    await this.io(() => this.redis.set(key, '1', 'EX', CALL_ATTRIBUTION_TTL_SECONDS));
  }

  async accepted(advId: string, callId: string): Promise<boolean> {
    const key = partnerKeys(this.keyPrefix, advId).callScreen(callId);
    return (await this.io(() => this.redis.get(key))) === '1';
  }

  private async io<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
  }
}
