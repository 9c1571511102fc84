import {
  decodeCallAttribution,
  decodeDialOutcome,
  decodeNumberIndexEntry,
  numberIndexKey,
  partnerKeys,
  type CallAttribution,
  type DialOutcome,
} from '@trackline/contracts';

/** The Redis commands the reader needs. */
export interface CallContextRedis {
  hget(key: string, field: string): Promise<string | null>;
  get(key: string): Promise<string | null>;
}

/** What replacement kept about a call: its routing attribution and how its dial ended. */
export interface CallContext {
  advId: string;
  attribution: CallAttribution | null;
  dial: DialOutcome | null;
}

export interface CallContextReader {
  /** Null when the tracking number is not one of ours. */
  find(trackingNumber: string, callSid: string): Promise<CallContext | null>;
}

export class RedisCallContextReader implements CallContextReader {
  constructor(
    private readonly redis: CallContextRedis,
    private readonly keyPrefix: string,
  ) {}

  async find(trackingNumber: string, callSid: string): Promise<CallContext | null> {
    const entry = await this.redis.hget(numberIndexKey(this.keyPrefix), trackingNumber);
    if (entry === null) return null;
    const { advId } = decodeNumberIndexEntry(entry);
    const keys = partnerKeys(this.keyPrefix, advId);
    const [attribution, dial] = await Promise.all([
      this.redis.get(keys.call(callSid)),
      this.redis.get(keys.callDial(callSid)),
    ]);
    return {
      advId,
      attribution: attribution === null ? null : decodeCallAttribution(attribution),
      dial: dial === null ? null : decodeDialOutcome(dial),
    };
  }
}
