import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RedisConnection } from '@trackline/platform';

/**
 * The package root holds lua/; found by walking up from this file so the same code works from
 * src/ under jest and from dist/ when built.
 */
function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'lua'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`lua/ folder not found above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export function readLuaScript(name: string): string {
  return readFileSync(join(packageRoot(), 'lua', `${name}.lua`), 'utf8');
}

export const ALLOCATE_NUMBERS_KEYS = 6;

export interface ReplacementScripts {
  allocateNumbers(...keysAndArgs: Array<string | number>): Promise<string[]>;
}

/**
 * Registers the scripts on a client (ioredis sends EVALSHA and falls back to EVAL after a server
 * restart emptied the script cache). Idempotent per client.
 */
export function defineReplacementScripts(redis: RedisConnection): RedisConnection & ReplacementScripts {
  const client = redis as RedisConnection & Partial<ReplacementScripts>;
  if (typeof client.allocateNumbers !== 'function') {
    redis.defineCommand('allocateNumbers', {
      numberOfKeys: ALLOCATE_NUMBERS_KEYS,
      lua: readLuaScript('allocate-numbers'),
    });
  }
  return client as RedisConnection & ReplacementScripts;
}
