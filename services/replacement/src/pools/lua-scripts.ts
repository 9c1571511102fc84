import { defineLuaCommand, type RedisConnection } from '@trackline/platform';

export const ALLOCATE_NUMBERS_KEYS = 5;
/** The same script without the customer's two keys, for a call with no customer to check (lua/allocate-numbers.lua). */
export const ALLOCATE_WITHOUT_CUSTOMER_KEYS = 3;
export const ADD_POOL_STATS_KEYS = 2;

export interface ReplacementScripts {
  /** The allocation's answer: null without a pool, '' when the named web session ended, else space-separated fields (lua/allocate-numbers.lua). */
  allocateNumbers(...keysAndArgs: Array<string | number>): Promise<string | null>;
  allocateNumbersWithoutCustomer(...keysAndArgs: Array<string | number>): Promise<string | null>;
  addPoolStats(...keysAndArgs: string[]): Promise<number>;
}

/** Registers lua/allocate-numbers.lua and lua/add-pool-stats.lua on a client through the platform's loader. Idempotent per client. */
export function defineReplacementScripts(redis: RedisConnection): RedisConnection & ReplacementScripts {
  defineLuaCommand(redis, __dirname, {
    name: 'addPoolStats',
    file: 'add-pool-stats',
    numberOfKeys: ADD_POOL_STATS_KEYS,
  });
  defineLuaCommand(redis, __dirname, {
    name: 'allocateNumbersWithoutCustomer',
    file: 'allocate-numbers',
    numberOfKeys: ALLOCATE_WITHOUT_CUSTOMER_KEYS,
  });
  return defineLuaCommand<ReplacementScripts>(redis, __dirname, {
    name: 'allocateNumbers',
    file: 'allocate-numbers',
    numberOfKeys: ALLOCATE_NUMBERS_KEYS,
  });
}
