import { assertKeyPrefix, DEFAULT_KEY_PREFIX } from '@trackline/contracts';
import type { EnvReader } from './env-config';

/**
 * The Redis both services meet in (docs/configuration.md): REDIS_URL, REDIS_CLUSTER_NODES and
 * REDIS_KEY_PREFIX must be the same for both, so both read them here, by the same rules. The
 * timeouts are per service (their defaults differ), read by the same rules too.
 */
export interface RedisSettings {
  /** REDIS_URL: `redis://` or `rediss://`; ignored when clusterNodes is non-empty. */
  url: string;
  /** REDIS_CLUSTER_NODES: `host:port` seeds of a Redis Cluster; when set, a Cluster client is made. */
  clusterNodes: string[];
  /** REDIS_KEY_PREFIX: namespace in front of every key; no braces or whitespace (a hash tag would break). */
  keyPrefix: string;
  /** REDIS_COMMAND_TIMEOUT_MS: a command unanswered this long fails its caller. */
  commandTimeoutMs: number;
  /** REDIS_CONNECT_TIMEOUT_MS. */
  connectTimeoutMs: number;
  /** REDIS_MAX_RECONNECT_DELAY_MS: longest pause between reconnection attempts. */
  maxReconnectDelayMs: number;
}

export type RedisTimeouts = Pick<
  RedisSettings,
  'commandTimeoutMs' | 'connectTimeoutMs' | 'maxReconnectDelayMs'
>;

const CLUSTER_NODE = /^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/;

export function readRedisSettings(read: EnvReader, defaults: RedisTimeouts): RedisSettings {
  const keyPrefix = read.string('REDIS_KEY_PREFIX', DEFAULT_KEY_PREFIX);
  try {
    assertKeyPrefix(keyPrefix);
  } catch {
    read.reject('REDIS_KEY_PREFIX', 'must not contain braces or whitespace');
  }
  const clusterNodes = read.list('REDIS_CLUSTER_NODES');
  for (const node of clusterNodes) {
    if (!CLUSTER_NODE.test(node)) read.reject('REDIS_CLUSTER_NODES', `${node} is not host:port`);
  }
  return {
    url: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
    clusterNodes,
    keyPrefix,
    commandTimeoutMs: read.integer('REDIS_COMMAND_TIMEOUT_MS', defaults.commandTimeoutMs, {
      min: 10,
      max: 10_000,
    }),
    connectTimeoutMs: read.integer('REDIS_CONNECT_TIMEOUT_MS', defaults.connectTimeoutMs, {
      min: 50,
      max: 60_000,
    }),
    maxReconnectDelayMs: read.integer('REDIS_MAX_RECONNECT_DELAY_MS', defaults.maxReconnectDelayMs, {
      min: 50,
      max: 60_000,
    }),
  };
}

/**
 * TELEPHONY_TOKEN: the switch's bearer token, the same for both services. Empty when unset, and an
 * empty token matches no request: the telephony endpoints then refuse everyone.
 */
export function readTelephonyToken(read: EnvReader): string {
  return read.string('TELEPHONY_TOKEN', '');
}
