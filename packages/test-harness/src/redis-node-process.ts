import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export const LOOPBACK = '127.0.0.1';
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_CHARS = 2_000;
const PORT_ATTEMPTS = 3;

export interface RedisNodeProcess {
  port: number;
  busPort: number;
  stop(): Promise<void>;
  /** SIGKILL, as a crashed machine: no goodbye to the cluster. stop() still removes the directory. */
  kill(): void;
}

const DEFAULT_NODE_TIMEOUT_MS = 5_000;

// Starts one cluster-enabled, persistence-free redis-server in a temporary directory and resolves
// once it accepts connections. With free ports, a port taken between choosing and binding is retried.
// `nodeTimeoutMs` is the server's cluster-node-timeout: how long a silent node takes to be suspected.
export async function startRedisNode(
  binary: string,
  fixedPort?: number,
  nodeTimeoutMs = DEFAULT_NODE_TIMEOUT_MS,
): Promise<RedisNodeProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    // Redis' default bus port is port + 10000, which can fall outside the port range for an
    // ephemeral port; cluster-port (Redis 7) takes a second free port instead.
    const busPort = fixedPort === undefined ? await distinctFreePort(port) : fixedPort + 10_000;
    try {
      return await launch(binary, port, busPort, nodeTimeoutMs);
    } catch (error) {
      const inUse = error instanceof Error && /address already in use/i.test(error.message);
      if (!inUse || fixedPort !== undefined || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

async function distinctFreePort(other: number): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== other) return port;
  }
}

async function launch(
  binary: string,
  port: number,
  busPort: number,
  nodeTimeoutMs: number,
): Promise<RedisNodeProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'tl-redis-cluster-'));
  // One flag and its value per line.
  // prettier-ignore
  const args = [
    '--port', String(port),
    '--bind', LOOPBACK,
    '--cluster-enabled', 'yes',
    '--cluster-port', String(busPort),
    '--cluster-config-file', join(dir, 'nodes.conf'),
    '--cluster-node-timeout', String(nodeTimeoutMs),
    '--dir', dir,
    '--save', '',
    '--appendonly', 'no',
    '--daemonize', 'no',
    '--logfile', '',
  ];
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = (): Promise<void> => stopProcess(child, dir);
  try {
    await waitUntilReady(child, binary, port);
  } catch (error) {
    await stop();
    throw error;
  }
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return { port, busPort, stop, kill };
}

function waitUntilReady(child: ChildProcess, binary: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(`redis-server on port ${port} was not ready within ${READY_TIMEOUT_MS} ms`),
      READY_TIMEOUT_MS,
    );
    const onOutput = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
      if (output.includes('Ready to accept connections')) finish();
    };
    const onError = (error: NodeJS.ErrnoException): void =>
      fail(
        error.code === 'ENOENT'
          ? `${binary} was not found; install Redis 7 or newer (e.g. apt-get install redis-server) so it is on the PATH`
          : `${binary} could not be started: ${error.message}`,
      );
    const onExit = (code: number | null): void =>
      fail(`redis-server on port ${port} exited (code ${code}) before it was ready:\n${output}`);
    function cleanUp(): void {
      clearTimeout(timer);
      child.stdout?.off('data', onOutput);
      child.stderr?.off('data', onOutput);
      child.off('error', onError);
      child.off('exit', onExit);
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
    }
    function finish(): void {
      cleanUp();
      resolve();
    }
    function fail(message: string): void {
      cleanUp();
      reject(new Error(message));
    }
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('error', onError);
    child.once('exit', onExit);
  });
}

async function stopProcess(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  await rm(dir, { recursive: true, force: true });
}
