import { partnerKeys, POOL_STATS_FIELDS } from '@trackline/contracts';
import { startRedisCluster, type RedisClusterHandle } from '@trackline/test-harness';
import { Cluster } from 'ioredis';
import { PoolStatsReader } from './pool-stats.reader';

const PARTNERS = 6;
const HOUR = 493_600;

// One pipeline per partner reads several hours: valid on a cluster only because every hour's key
// carries the partner's hash tag. Partners spread over the masters, each read by itself.
describe('PoolStatsReader on Redis Cluster', () => {
  let cluster: RedisClusterHandle;
  let client: Cluster;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    client = new Cluster(cluster.nodes);
  }, 60_000);

  afterAll(async () => {
    await client?.quit();
    await cluster?.stop();
  });

  it('reads every partner’s hours from the master holding its slot', async () => {
    const reader = new PoolStatsReader(client, 'cluster:');
    for (let i = 0; i < PARTNERS; i++) {
      const keys = partnerKeys('cluster:', `stats-${i}`);
      await client.hset(keys.poolStats(HOUR), {
        [POOL_STATS_FIELDS.sessions]: 10 + i,
        [POOL_STATS_FIELDS.issued]: 11 + i,
        [POOL_STATS_FIELDS.recycled]: i,
        [POOL_STATS_FIELDS.peakLeased]: 3,
      });
      await client.hset(keys.poolStats(HOUR + 1), { [POOL_STATS_FIELDS.sessions]: 1 });
    }
    for (let i = 0; i < PARTNERS; i++) {
      const stats = await reader.read(`stats-${i}`, [HOUR - 1, HOUR, HOUR + 1]);
      expect([...stats]).toEqual([
        [HOUR - 1, null],
        [HOUR, { sessions: 10 + i, issued: 11 + i, recycled: i, peakLeased: 3 }],
        [HOUR + 1, { sessions: 1, issued: 0, recycled: 0, peakLeased: 0 }],
      ]);
    }
  });
});
