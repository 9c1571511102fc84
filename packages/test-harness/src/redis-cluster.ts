import { Redis } from 'ioredis';
import { LOOPBACK, type RedisNodeProcess, startRedisNode } from './redis-node-process';

const SLOT_COUNT = 16_384;
const CLUSTER_OK_TIMEOUT_MS = 20_000;
const POLL_INTERVAL_MS = 100;

export interface RedisClusterOptions {
  masters?: number;
  // First client port; node i listens on basePort + i (and its bus on that + 10000). Free ports when omitted.
  basePort?: number;
  // The server binary; `redis-server` from the PATH when omitted.
  redisServer?: string;
}

export interface RedisClusterHandle {
  nodes: Array<{ host: string; port: number }>;
  stop(): Promise<void>;
}

// A real Redis Cluster of `masters` (default 3) masters and no replicas, made of redis-server
// processes from the PATH (Redis 7 or newer), for tests that must prove multi-key commands and Lua
// scripts respect hash slots. stop() ends the processes and removes their directories.
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  if (!Number.isInteger(masters) || masters < 1)
    throw new Error(`masters must be a positive integer, got ${masters}`);

  const started: RedisNodeProcess[] = [];
  const stopAll = async (): Promise<void> => {
    process.off('exit', killOnExit);
    await Promise.all(started.splice(0).map((node) => node.stop()));
  };
  // If the test process ends without calling stop(), do not leave servers behind.
  const killOnExit = (): void => started.forEach((node) => void node.stop());
  process.on('exit', killOnExit);
  try {
    for (let i = 0; i < masters; i++) {
      const port = options.basePort === undefined ? undefined : options.basePort + i;
      started.push(await startRedisNode(options.redisServer ?? 'redis-server', port));
    }
    await formCluster(started);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { nodes: started.map((node) => ({ host: LOOPBACK, port: node.port })), stop: stopAll };
}

// What redis-cli --cluster create does for masters only: give each node a contiguous slot range and
// a distinct config epoch, introduce them to each other, then wait until every node agrees.
async function formCluster(nodes: RedisNodeProcess[]): Promise<void> {
  const clients = nodes.map(
    (node) =>
      new Redis({ host: LOOPBACK, port: node.port, maxRetriesPerRequest: 1, retryStrategy: () => null }),
  );
  try {
    const perNode = Math.floor(SLOT_COUNT / nodes.length);
    for (const [i, client] of clients.entries()) {
      const first = i * perNode;
      const last = i === nodes.length - 1 ? SLOT_COUNT - 1 : first + perNode - 1;
      await client.call('CLUSTER', 'ADDSLOTSRANGE', String(first), String(last));
      await client.call('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1));
    }
    for (const node of nodes.slice(1)) {
      await clients[0].call('CLUSTER', 'MEET', LOOPBACK, String(node.port), String(node.busPort));
    }
    await waitForClusterOk(clients, nodes.length);
  } finally {
    clients.forEach((client) => client.disconnect());
  }
}

async function waitForClusterOk(clients: Redis[], expectedNodes: number): Promise<void> {
  const deadline = Date.now() + CLUSTER_OK_TIMEOUT_MS;
  let lastInfo = '';
  for (;;) {
    const infos = await Promise.all(
      clients.map((client) => client.call('CLUSTER', 'INFO') as Promise<string>),
    );
    const allOk = infos.every(
      (info) =>
        info.includes('cluster_state:ok') &&
        info.includes(`cluster_known_nodes:${expectedNodes}\r`) &&
        info.includes(`cluster_slots_assigned:${SLOT_COUNT}\r`),
    );
    if (allOk) return;
    lastInfo = infos.find((info) => !info.includes('cluster_state:ok')) ?? infos[0];
    if (Date.now() > deadline) {
      throw new Error(
        `Redis Cluster did not reach cluster_state:ok on all ${expectedNodes} nodes within ` +
          `${CLUSTER_OK_TIMEOUT_MS} ms; last CLUSTER INFO:\n${lastInfo}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
