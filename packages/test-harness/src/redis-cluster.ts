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
  // Replicas of each master (default 0), for tests of a master's failover.
  replicasPerMaster?: number;
  // The servers' cluster-node-timeout (default 5000 ms): a silent master is failed over after it.
  nodeTimeoutMs?: number;
}

export interface RedisClusterHandle {
  // Every node, masters first, then replicas.
  nodes: Array<{ host: string; port: number }>;
  // SIGKILL of the node listening on `port` (a crash: no failover handshake, no goodbye).
  kill(port: number): void;
  stop(): Promise<void>;
}

// A real Redis Cluster of `masters` (default 3) masters, each with `replicasPerMaster` replicas
// (default none), made of redis-server processes from the PATH (Redis 7 or newer), for tests that
// must prove multi-key commands and Lua scripts respect hash slots, or that the service rides out a
// master's failover. stop() ends the processes and removes their directories.
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  if (!Number.isInteger(masters) || masters < 1)
    throw new Error(`masters must be a positive integer, got ${masters}`);
  const replicasPerMaster = options.replicasPerMaster ?? 0;
  if (!Number.isInteger(replicasPerMaster) || replicasPerMaster < 0)
    throw new Error(`replicasPerMaster must be a non-negative integer, got ${replicasPerMaster}`);
  const total = masters * (1 + replicasPerMaster);

  const started: RedisNodeProcess[] = [];
  const stopAll = async (): Promise<void> => {
    process.off('exit', killOnExit);
    await Promise.all(started.splice(0).map((node) => node.stop()));
  };
  // If the test process ends without calling stop(), do not leave servers behind.
  const killOnExit = (): void => started.forEach((node) => void node.stop());
  process.on('exit', killOnExit);
  try {
    for (let i = 0; i < total; i++) {
      const port = options.basePort === undefined ? undefined : options.basePort + i;
      started.push(await startRedisNode(options.redisServer ?? 'redis-server', port, options.nodeTimeoutMs));
    }
    await formCluster(started.slice(0, masters));
    if (replicasPerMaster > 0) await addReplicas(started.slice(0, masters), started.slice(masters));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const kill = (port: number): void => {
    const node = started.find((candidate) => candidate.port === port);
    if (node === undefined) throw new Error(`no node of this cluster listens on port ${port}`);
    node.kill();
  };
  return { nodes: started.map((node) => ({ host: LOOPBACK, port: node.port })), kill, stop: stopAll };
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

// What redis-cli --cluster create --cluster-replicas does for the replicas: each meets the cluster
// and replicates its master (replica i → master i mod masters); then wait until every replica has
// finished its first sync and every node knows every other.
async function addReplicas(masters: RedisNodeProcess[], replicas: RedisNodeProcess[]): Promise<void> {
  const connect = (node: RedisNodeProcess): Redis =>
    new Redis({ host: LOOPBACK, port: node.port, maxRetriesPerRequest: 1, retryStrategy: () => null });
  const masterClients = masters.map(connect);
  const replicaClients = replicas.map(connect);
  try {
    const masterIds = await Promise.all(
      masterClients.map((client) => client.call('CLUSTER', 'MYID') as Promise<string>),
    );
    for (const replica of replicas) {
      await masterClients[0].call('CLUSTER', 'MEET', LOOPBACK, String(replica.port), String(replica.busPort));
    }
    const deadline = Date.now() + CLUSTER_OK_TIMEOUT_MS;
    for (const [i, client] of replicaClients.entries()) {
      const masterId = masterIds[i % masters.length];
      // REPLICATE needs the master in the replica's node table, which gossip fills in shortly.
      for (;;) {
        const nodes = (await client.call('CLUSTER', 'NODES')) as string;
        if (nodes.includes(masterId)) break;
        if (Date.now() > deadline)
          throw new Error(`replica on port ${replicas[i].port} never learnt of its master`);
        await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      }
      await client.call('CLUSTER', 'REPLICATE', masterId);
    }
    for (const [i, client] of replicaClients.entries()) {
      for (;;) {
        const info = (await client.call('INFO', 'replication')) as string;
        if (info.includes('master_link_status:up')) break;
        if (Date.now() > deadline)
          throw new Error(
            `replica on port ${replicas[i].port} did not sync within ${CLUSTER_OK_TIMEOUT_MS} ms:\n${info}`,
          );
        await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      }
    }
    await waitForClusterOk([...masterClients, ...replicaClients], masters.length + replicas.length);
  } finally {
    [...masterClients, ...replicaClients].forEach((client) => client.disconnect());
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
