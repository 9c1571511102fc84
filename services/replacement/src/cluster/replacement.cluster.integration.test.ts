import { partnerKeys, writePartnerProjection } from '@trackline/contracts';
import { createRedisClient, listen } from '@trackline/platform';
import { startRedisCluster, type RedisClusterHandle } from '@trackline/test-harness';
import { Cluster, Redis } from 'ioredis';
import { createServer } from 'node:http';
import { createReplacementApp } from '../app';
import { loadReplacementConfig } from '../config/replacement-config';
import { allocationSuite } from '../test-support/allocation.suite';
import { partnerConfig, poolNumbers, projection, silentLogger, uniqueAdvId } from '../test-support/fixtures';
import { sendReplacementRequest, webRequest } from '../test-support/partner-client';
import { whenReady, type RedisTarget } from '../test-support/redis-target';
import { routingSuite } from '../test-support/routing.suite';

// Starting three redis-server processes and forming the cluster takes a few seconds on a busy
// 2-core machine; every single test still has a bound.
jest.setTimeout(30_000);

const KEY_PREFIX = 'cluster-test:';

/**
 * The replacement suites on a real three-master Redis Cluster (docs/operations.md, Beyond one machine),
 * through the client the service makes from REDIS_CLUSTER_NODES: the allocation script and every other
 * command must stay inside one partner's hash slot, or the cluster refuses them with CROSSSLOT.
 */
describe('replacement service on a three-master Redis Cluster', () => {
  let cluster: RedisClusterHandle | undefined;
  let seeds = '';

  beforeAll(async () => {
    cluster = await startRedisCluster();
    seeds = cluster.nodes.map((node) => `${node.host}:${node.port}`).join(',');
  }, 60_000);
  // Nested afterAll hooks (the suites' own clients) run before this one.
  afterAll(async () => {
    await cluster?.stop();
  });

  /** The service's own configuration path: REDIS_CLUSTER_NODES → loadReplacementConfig → factory. */
  function clusterConfig() {
    return loadReplacementConfig({
      REDIS_CLUSTER_NODES: seeds,
      REDIS_KEY_PREFIX: KEY_PREFIX,
      REDIS_COMMAND_TIMEOUT_MS: '2000',
      // A master's first script call compiles it (NOSCRIPT, then EVAL); on a busy machine that alone
      // can pass the 150 ms default, and this file is about slots, not deadlines.
      REQUEST_STORE_DEADLINE_MS: '2000',
    });
  }

  async function clusterTarget(): Promise<RedisTarget> {
    const { redis: settings } = clusterConfig();
    const redis = createRedisClient({
      url: settings.url,
      clusterNodes: settings.clusterNodes,
      connectTimeoutMs: settings.connectTimeoutMs,
      commandTimeoutMs: settings.commandTimeoutMs,
      maxReconnectDelayMs: settings.maxReconnectDelayMs,
      queueWhileDisconnected: false,
      name: 'replacement-cluster-test',
      logger: silentLogger,
    });
    await whenReady(redis);
    // The cluster is this file's own; its keys go with it when stop() removes the nodes.
    return { redis, keyPrefix: settings.keyPrefix, close: async () => redis.disconnect() };
  }

  describe('number pool allocation', () => {
    allocationSuite(clusterTarget);
  });

  describe('call routing', () => {
    routingSuite(clusterTarget);
  });

  describe('partners spread over the masters', () => {
    let target: RedisTarget;
    let service: { baseUrl: string; close(): Promise<void> };

    beforeAll(async () => {
      target = await clusterTarget();
      // No injected connection: the app builds its own client from the configuration, as main.ts does.
      const replacement = createReplacementApp({
        config: { ...clusterConfig(), partnerConfigCacheMs: 0 },
        logger: silentLogger,
      });
      await whenReady(replacement.redis);
      const server = createServer(replacement.handler);
      const port = await listen(server, 0, '127.0.0.1');
      service = {
        baseUrl: `http://127.0.0.1:${port}`,
        close: async () => {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await replacement.close();
        },
      };
      expect(replacement.redis).toBeInstanceOf(Cluster);
    });
    afterAll(async () => {
      await service?.close();
      await target?.close();
    });

    it('serves partners whose keys live on different masters, each from its own slot', async () => {
      const partners = Array.from({ length: 12 }, () => partnerConfig(uniqueAdvId('spread')));
      // Distinct pools per partner: the global number index is shared, a number belongs to one partner.
      for (const [i, partner] of partners.entries()) {
        await writePartnerProjection(
          target.redis,
          KEY_PREFIX,
          projection(partner, poolNumbers(3, 2000 + i * 10)),
        );
      }

      const cluster = target.redis as Cluster;
      const owners = await Promise.all(
        partners.map((partner) => masterOf(cluster, partnerKeys(KEY_PREFIX, partner.advId).pool)),
      );
      expect(new Set(owners).size).toBe(3);

      const calls = await Promise.all(
        partners.map((partner) =>
          sendReplacementRequest(service.baseUrl, webRequest(partner.advId, '22334455'), {
            secret: partner.signingSecret,
            httpStatuses: true,
          }),
        ),
      );
      for (const [i, call] of calls.entries()) {
        expect(call.status).toBe(200);
        const [entry] = call.body.numbers as Array<{ replace_with: { e164: string } }>;
        expect(poolNumbers(3, 2000 + i * 10)).toContain(entry!.replace_with.e164);
      }

      // Every key the request wrote sits on the master that owns its partner's slot, next to the pool.
      for (const [i, partner] of partners.entries()) {
        const keys = partnerKeys(KEY_PREFIX, partner.advId);
        const node = new Redis({ host: '127.0.0.1', port: owners[i]!, lazyConnect: true });
        try {
          await node.connect();
          const sessionKey = keys.webSession(calls[i]!.body.sessionId as string);
          // READONLY-free single-node reads: a key of another slot would answer MOVED instead.
          expect(
            await node.exists(keys.pool, keys.bindings, sessionKey, keys.customerEvents, keys.customersSent),
          ).toBe(5);
        } finally {
          node.disconnect();
        }
      }
    });
  });
});

/** The port of the master serving the slot of `key`. */
async function masterOf(cluster: Cluster, key: string): Promise<number> {
  const slot = (await cluster.cluster('KEYSLOT', key)) as number;
  const ranges = await cluster.cluster('SLOTS');
  const master = ranges.find(([first, last]) => slot >= first && slot <= last)?.[2];
  if (master === undefined) throw new Error(`no master serves slot ${slot}`);
  return master[1];
}
