import {
  numberIndexKey,
  writePartnerProjection,
  type PartnerProjection,
  type ProjectionRedis,
} from '@trackline/contracts';
import { defineLuaCommand, type RedisConnection } from '@trackline/platform';

/** The projections' side of Redis. */
export interface ProjectionRedisStore {
  /** Makes Redis hold exactly this partner's projection (the contracts' writer). */
  write(projection: PartnerProjection): Promise<void>;
  /** The whole global index: number → entry. */
  indexEntries(): Promise<Map<string, string>>;
  /** Removes each number's entry only while it still holds the value given; returns how many went. */
  deleteIndexEntriesIf(found: ReadonlyMap<string, string>): Promise<number>;
}

const SCAN_COUNT = 1000;
const DELETE_BATCH = 500;
const SCRIPT = 'deleteIndexEntriesIf';

interface ProjectionScripts {
  [SCRIPT](key: string, ...numbersAndValues: string[]): Promise<number>;
}
type ScriptedRedis = RedisConnection & ProjectionScripts;

export class IoredisProjectionStore implements ProjectionRedisStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: RedisConnection,
    /** REDIS_KEY_PREFIX, the contracts' key namespace. */
    private readonly keyPrefix: string,
  ) {
    this.redis = defineLuaCommand<ProjectionScripts>(redis, __dirname, {
      name: SCRIPT,
      file: 'delete-index-entries-if',
      numberOfKeys: 1,
    });
  }

  write(projection: PartnerProjection): Promise<void> {
    // ioredis' Redis and Cluster have every command the writer uses, with wider signatures.
    return writePartnerProjection(this.redis as unknown as ProjectionRedis, this.keyPrefix, projection);
  }

  async indexEntries(): Promise<Map<string, string>> {
    const entries = new Map<string, string>();
    const key = numberIndexKey(this.keyPrefix);
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(key, cursor, 'COUNT', SCAN_COUNT);
      for (let i = 0; i < flat.length; i += 2) entries.set(flat[i]!, flat[i + 1]!);
      cursor = next;
    } while (cursor !== '0');
    return entries;
  }

  async deleteIndexEntriesIf(found: ReadonlyMap<string, string>): Promise<number> {
    const pairs = [...found.entries()];
    let removed = 0;
    for (let i = 0; i < pairs.length; i += DELETE_BATCH) {
      const batch = pairs.slice(i, i + DELETE_BATCH).flat();
      removed += await this.redis[SCRIPT](numberIndexKey(this.keyPrefix), ...batch);
    }
    return removed;
  }
}
