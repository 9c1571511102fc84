import { defineLuaCommand, type RedisConnection } from '@trackline/platform';

export const ALLOCATE_NUMBERS_KEYS = 7;

export interface ReplacementScripts {
  allocateNumbers(...keysAndArgs: Array<string | number>): Promise<string[]>;
}

/** Registers lua/allocate-numbers.lua on a client through the platform's loader. Idempotent per client. */
export function defineReplacementScripts(redis: RedisConnection): RedisConnection & ReplacementScripts {
  return defineLuaCommand<ReplacementScripts>(redis, __dirname, {
    name: 'allocateNumbers',
    file: 'allocate-numbers',
    numberOfKeys: ALLOCATE_NUMBERS_KEYS,
  });
}
