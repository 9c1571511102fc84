import { decodePoolHourStats, partnerKeys, type PoolHourStats } from '@trackline/contracts';

/** The one command the reader needs, pipelined (ioredis Redis and Cluster both have it). */
export interface PoolStatsRedis {
  pipeline(commands: Array<[string, ...string[]]>): {
    exec(): Promise<Array<[Error | null, unknown]> | null>;
  };
}

/**
 * Reads the allocation script's hourly counters (docs/redis-keys.md, Pool telemetry). Management
 * only reads them. One partner's hours share its hash tag, so one pipeline per partner is valid on
 * Redis Cluster.
 */
export class PoolStatsReader {
  constructor(
    private readonly redis: PoolStatsRedis,
    private readonly keyPrefix: string,
  ) {}

  /** The counters of each hour (epoch hours); null for an hour without traffic or already expired. */
  async read(advId: string, hours: readonly number[]): Promise<Map<number, PoolHourStats | null>> {
    const stats = new Map<number, PoolHourStats | null>();
    if (hours.length === 0) return stats;
    const keys = partnerKeys(this.keyPrefix, advId);
    const replies = await this.redis.pipeline(hours.map((hour) => ['hgetall', keys.poolStats(hour)])).exec();
    if (replies === null) throw new Error('Redis pipeline aborted');
    hours.forEach((hour, i) => {
      const [error, hash] = replies[i]!;
      if (error !== null) throw error;
      stats.set(hour, decodePoolHourStats(hash as Record<string, string>));
    });
    return stats;
  }
}
