import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RedisConnection } from './redis-client';

/** One Lua script of a package, run as a command of the client (ioredis `defineCommand`, docs/architecture.md). */
export interface LuaCommand {
  /** The method name the client gets, e.g. `allocateNumbers`. */
  name: string;
  /** `<package>/lua/<file>.lua`. */
  file: string;
  /** How many leading arguments are keys: every key a script touches is passed in KEYS (Cluster routes on them). */
  numberOfKeys: number;
}

/**
 * Reads `<package>/lua/<file>.lua`, where the package is the nearest folder above `fromDir` (the
 * caller's `__dirname`) that holds it: the same call works from `src/` under jest and from `dist/`
 * when built, and the package folder (with its `lua/`) is what the images copy.
 */
export function readLuaScript(fromDir: string, file: string): string {
  let dir = fromDir;
  while (!existsSync(join(dir, 'lua', `${file}.lua`))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`lua/${file}.lua not found above ${fromDir}`);
    dir = parent;
  }
  return readFileSync(join(dir, 'lua', `${file}.lua`), 'utf8');
}

/**
 * Registers the script on the client with ioredis `defineCommand` (EVALSHA, falling back to EVAL
 * once after a restart emptied the server's script cache) and returns the client typed with the
 * command. Idempotent per client, so every store built on a shared client may call it.
 */
export function defineLuaCommand<Commands extends object>(
  redis: RedisConnection,
  fromDir: string,
  command: LuaCommand,
): RedisConnection & Commands {
  const client = redis as unknown as Record<string, unknown>;
  if (typeof client[command.name] !== 'function') {
    redis.defineCommand(command.name, {
      numberOfKeys: command.numberOfKeys,
      lua: readLuaScript(fromDir, command.file),
    });
  }
  return redis as RedisConnection & Commands;
}
