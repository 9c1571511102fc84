import { accessSync, constants, mkdirSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import tls from 'node:tls';
import { startChild, type ManagedChild } from './children';
import { LauncherError } from './launcher-error';
import type { LineWriter } from './process-output';

export interface LocalRedis {
  url: string;
  /** True when this launcher started redis-server (and so must stop it). */
  spawned: boolean;
  stop(): Promise<void>;
}

export interface LocalRedisOptions {
  url: string;
  /** Where a spawned redis-server keeps its data (append-only file and snapshot). */
  dataDir: string;
  /** Finds an executable by name; injected so tests can pretend there is none. */
  findExecutable: (name: string) => string | undefined;
  write: LineWriter;
  /** How long a spawned server gets to answer PING. */
  startTimeoutMs?: number;
}

export const INSTALL_REDIS_LINE =
  'Redis is needed: nothing answers at REDIS_URL and there is no redis-server on the PATH. ' +
  'Install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a running Redis.';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Uses the Redis at options.url when one answers there; otherwise starts redis-server on that port. */
export async function ensureRedis(options: LocalRedisOptions): Promise<LocalRedis> {
  if (await redisAnswers(options.url, 1500))
    return { url: options.url, spawned: false, stop: async () => undefined };

  const target = new URL(options.url);
  if (!LOCAL_HOSTS.has(target.hostname) || target.protocol !== 'redis:') {
    // A remote or TLS Redis is the operator's to run; starting a local one would silently split data.
    throw new LauncherError(
      `Nothing answers at REDIS_URL=${options.url}; start that Redis or unset REDIS_URL.`,
    );
  }
  const binary = options.findExecutable('redis-server');
  if (binary === undefined) throw new LauncherError(INSTALL_REDIS_LINE);

  const port = target.port === '' ? 6379 : Number(target.port);
  mkdirSync(options.dataDir, { recursive: true });
  const child = startChild(
    {
      name: 'redis',
      command: binary,
      args: localRedisArgs(port, options.dataDir),
      env: process.env,
      cwd: options.dataDir,
      nameWidth: 'replacement'.length,
    },
    options.write,
  );
  try {
    await waitUntilAnswering(options.url, child, options.startTimeoutMs ?? 15_000);
  } catch (error) {
    await child.stop(2000);
    throw error;
  }
  return { url: options.url, spawned: true, stop: () => child.stop(10_000) };
}

/**
 * No config file, so no machine-wide redis.conf applies: foreground, loopback only. Durable like a
 * production Redis should be: every write goes to an append-only file in dataDir, flushed to disk
 * every second, so a restart (or a crash) loses at most the last second of what the services wrote.
 */
export function localRedisArgs(port: number, dataDir: string): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dataDir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--daemonize',
    'no',
    '--save',
    '60 1',
  ];
}

/**
 * True when a Redis server replies to PING at url. Any reply counts, an error such as NOAUTH too:
 * someone is listening there, so starting another server on that port would be wrong. A raw RESP
 * exchange keeps this probe free of client retry timers.
 */
export function redisAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const target = new URL(url);
  const port = target.port === '' ? 6379 : Number(target.port);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket =
      target.protocol === 'rediss:'
        ? tls.connect({ host, port, servername: host, rejectUnauthorized: false })
        : net.connect({ host, port });
    const finish = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once(target.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => socket.write('PING\r\n'));
    socket.once('data', (reply: Buffer) => finish(reply[0] === 0x2b || reply[0] === 0x2d)); // '+' or '-'
  });
}

async function waitUntilAnswering(url: string, child: ManagedChild, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!child.isRunning())
      throw new LauncherError(
        `redis-server exited during start (exit ${String(await child.exited)}); see the redis lines above.`,
      );
    if (await redisAnswers(url, 500)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new LauncherError(`redis-server did not answer at ${url} within ${timeoutMs} ms.`);
}

/** Looks an executable up on a PATH string, as a shell would. */
export function findOnPath(name: string, pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next folder
    }
  }
  return undefined;
}
