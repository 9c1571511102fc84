import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { LauncherError } from './launcher-error';
import { ensureRedis, findOnPath, INSTALL_REDIS_LINE, redisAnswers, type LocalRedis } from './local-redis';

jest.setTimeout(60_000);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('the Redis step of pnpm start', () => {
  let dataDir: string;
  let url: string;
  const started: LocalRedis[] = [];
  const lines: string[] = [];
  const write = (line: string): void => void lines.push(line);

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'trackline-redis-'));
    url = `redis://127.0.0.1:${await freePort()}`;
    lines.length = 0;
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((redis) => redis.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts redis-server from the PATH when nothing answers, and uses it when it does', async () => {
    const binary = findOnPath('redis-server', process.env.PATH);
    expect(binary).toBeDefined();

    const spawned = await ensureRedis({ url, dataDir, findExecutable: () => binary, write });
    started.push(spawned);
    expect(spawned).toMatchObject({ url, spawned: true });
    expect(lines.some((line) => line.startsWith('redis '))).toBe(true);

    const client = new Redis(url);
    // Durable: an append-only file in the data folder, flushed every second.
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    expect(await client.config('GET', 'appendfsync')).toEqual(['appendfsync', 'everysec']);
    expect(await client.config('GET', 'dir')).toEqual(['dir', realpathSync(dataDir)]);
    await client.set('trackline:launcher-test', 'kept');
    client.disconnect();

    // Something answers now: it is used as is and no binary is even looked for.
    const findExecutable = jest.fn(() => binary);
    const reused = await ensureRedis({ url, dataDir, findExecutable, write });
    expect(reused.spawned).toBe(false);
    expect(findExecutable).not.toHaveBeenCalled();

    // Stopping the spawned server really stops it, and a new start finds the data again.
    await started.pop()!.stop();
    expect(await redisAnswers(url, 500)).toBe(false);
    const again = await ensureRedis({ url, dataDir, findExecutable: () => binary, write });
    started.push(again);
    const check = new Redis(url);
    expect(await check.get('trackline:launcher-test')).toBe('kept');
    check.disconnect();
  });

  it('stops with one line on how to install Redis when there is no redis-server', async () => {
    const attempt = ensureRedis({ url, dataDir, findExecutable: () => undefined, write });
    await expect(attempt).rejects.toThrow(LauncherError);
    await expect(attempt).rejects.toThrow(INSTALL_REDIS_LINE);
    expect(INSTALL_REDIS_LINE).not.toContain('\n');
    expect(INSTALL_REDIS_LINE).toMatch(/apt-get install redis-server/);
    expect(INSTALL_REDIS_LINE).toMatch(/brew install redis/);
  });

  it('does not start a local server in place of a remote REDIS_URL', async () => {
    const findExecutable = jest.fn(() => '/usr/bin/redis-server');
    await expect(
      ensureRedis({ url: 'redis://192.0.2.1:6379', dataDir, findExecutable, write }),
    ).rejects.toThrow('Nothing answers at REDIS_URL=redis://192.0.2.1:6379');
    expect(findExecutable).not.toHaveBeenCalled();
  });
});

describe('findOnPath', () => {
  it('finds an executable in a PATH folder and nothing in an empty PATH', () => {
    expect(findOnPath('node', path.dirname(process.execPath))).toBe(process.execPath);
    expect(findOnPath('node', '')).toBeUndefined();
    expect(findOnPath('no-such-binary-trackline', process.env.PATH)).toBeUndefined();
  });
});
