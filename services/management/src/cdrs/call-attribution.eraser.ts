import { decodeCallAttribution, partnerKeys } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';

const SCAN_COUNT = 1_000;

/**
 * Deletes a caller's call attributions, which replacement stores for 7 days with the caller's number
 * in them (docs/redis-keys.md): those of the calls named, and those of calls that have no record yet,
 * found by scanning the partner's attribution keys.
 */
export class RedisCallAttributionEraser {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keyPrefix: string,
  ) {}

  /** Answers how many attributions were deleted. */
  async erase(advId: string, anums: readonly string[], callIds: readonly string[]): Promise<number> {
    const callers = new Set(anums);
    const keys = partnerKeys(this.keyPrefix, advId);
    const doomed = new Set(callIds.map((callId) => keys.call(callId)));
    const pattern = `${escapeGlob(keys.call(''))}*`;
    for (const node of 'nodes' in this.redis ? this.redis.nodes('master') : [this.redis]) {
      let cursor = '0';
      do {
        const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
        cursor = next;
        for (const key of found)
          if (!doomed.has(key) && callers.has(callerOf(await node.get(key)) ?? '')) doomed.add(key);
      } while (cursor !== '0');
    }
    let deleted = 0;
    for (const key of doomed) deleted += await this.redis.del(key);
    return deleted;
  }
}

function callerOf(raw: string | null): string | null {
  if (raw === null) return null;
  try {
    return decodeCallAttribution(raw).anum;
  } catch {
    return null;
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
