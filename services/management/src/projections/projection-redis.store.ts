import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  numberIndexKey,
  writePartnerProjection,
  type PartnerProjection,
  type ProjectionRedis,
} from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';

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

type ScriptedRedis = RedisConnection & {
  [SCRIPT](key: string, ...numbersAndValues: string[]): Promise<number>;
};

export class IoredisProjectionStore implements ProjectionRedisStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: RedisConnection,
    /** REDIS_KEY_PREFIX, the contracts' key namespace. */
    private readonly keyPrefix: string,
  ) {
    const scripted = redis as ScriptedRedis;
    if (typeof scripted[SCRIPT] !== 'function') {
      redis.defineCommand(SCRIPT, { numberOfKeys: 1, lua: readLuaScript('delete-index-entries-if') });
    }
    this.redis = scripted;
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

/** `<package>/lua/<name>.lua`, found by walking up so it works from src/ (jest) and dist/. */
function readLuaScript(name: string): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'lua', `${name}.lua`))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`lua/${name}.lua not found above ${__dirname}`);
    dir = parent;
  }
  return readFileSync(join(dir, 'lua', `${name}.lua`), 'utf8');
}
