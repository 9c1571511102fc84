import { Cluster, Redis } from 'ioredis';
import { createConnection } from 'node:net';
import { startRedisCluster, type RedisClusterHandle } from './redis-cluster';

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('startRedisCluster', () => {
  let cluster: RedisClusterHandle | undefined;
  let client: Cluster | undefined;
  afterAll(async () => {
    await client?.quit();
    await cluster?.stop();
  });

  it('forms a three-master cluster that serves keys with different hash tags from different masters', async () => {
    cluster = await startRedisCluster();
    expect(cluster.nodes).toHaveLength(3);
    client = new Cluster(cluster.nodes);

    const partners = Array.from({ length: 30 }, (_, i) => `partner-${i}`);
    for (const partner of partners) {
      // Multi-key commands are legal within one hash tag...
      await client.mset(`{${partner}}:a`, `${partner}-a`, `{${partner}}:b`, `${partner}-b`);
    }
    for (const partner of partners) {
      expect(await client.mget(`{${partner}}:a`, `{${partner}}:b`)).toEqual([`${partner}-a`, `${partner}-b`]);
    }

    // ...and the keys are really spread over all three masters.
    const keysPerMaster = await Promise.all(
      cluster.nodes.map(async ({ host, port }) => {
        const node = new Redis({ host, port });
        try {
          return await node.dbsize();
        } finally {
          node.disconnect();
        }
      }),
    );
    expect(keysPerMaster.every((count) => count > 0)).toBe(true);
    expect(keysPerMaster.reduce((sum, count) => sum + count, 0)).toBe(partners.length * 2);

    // Across hash tags the cluster refuses a multi-key command, as production Redis Cluster would.
    const slots = await Promise.all(
      ['{partner-0}:a', '{partner-1}:a'].map((key) => client!.cluster('KEYSLOT', key)),
    );
    expect(slots[0]).not.toBe(slots[1]);
    await expect(client.mget('{partner-0}:a', '{partner-1}:a')).rejects.toThrow(/CROSSSLOT|same slot/);
  });

  it('stop() ends every node', async () => {
    const ports = cluster!.nodes.map((node) => node.port);
    await client!.quit();
    client = undefined;
    await cluster!.stop();
    cluster = undefined;
    expect(await Promise.all(ports.map(refusesConnections))).toEqual([true, true, true]);
  });

  it('fails with a clear message when the redis-server binary is missing', async () => {
    await expect(startRedisCluster({ redisServer: 'redis-server-missing' })).rejects.toThrow(
      /redis-server-missing was not found; install Redis 7 or newer/,
    );
  });
});
