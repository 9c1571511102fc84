import { createLogger } from './logger';
import { createRedisClient, type RedisClientOptions, type RedisConnection } from './redis-client';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function options(batchCommandsPerTurn: boolean): RedisClientOptions {
  return {
    url,
    clusterNodes: [],
    connectTimeoutMs: 1_000,
    commandTimeoutMs: 1_000,
    maxReconnectDelayMs: 1_000,
    queueWhileDisconnected: false,
    batchCommandsPerTurn,
    name: 'batch-test',
    logger: createLogger({ level: 'silent', service: 'test' }),
  };
}

describe('redis client, commands batched per turn of the event loop', () => {
  const clients: RedisConnection[] = [];
  afterAll(() => clients.forEach((client) => client.disconnect()));

  async function ready(batch: boolean): Promise<RedisConnection> {
    const client = createRedisClient(options(batch));
    clients.push(client);
    await new Promise((resolve) => client.once('ready', resolve));
    return client;
  }

  it('queues the commands of one turn for a single write when asked, and answers each', async () => {
    const client = await ready(true);
    const replies = [client.ping('a'), client.ping('b'), client.ping('c')];
    expect(client.autoPipelineQueueSize).toBe(3);
    expect(await Promise.all(replies)).toEqual(['a', 'b', 'c']);
  });

  it('writes each command at once otherwise', async () => {
    const client = await ready(false);
    const replies = [client.ping('a'), client.ping('b')];
    expect(client.autoPipelineQueueSize).toBe(0);
    expect(await Promise.all(replies)).toEqual(['a', 'b']);
  });
});
