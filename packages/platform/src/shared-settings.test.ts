import { ConfigError, EnvReader } from './env-config';
import { readRedisSettings, readTelephonyToken } from './shared-settings';

const TIMEOUTS = { commandTimeoutMs: 500, connectTimeoutMs: 2_000, maxReconnectDelayMs: 5_000 };

function problemsOf(read: EnvReader): string[] {
  try {
    read.done();
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}

describe('readRedisSettings', () => {
  it('defaults to a local Redis, no prefix, and the service its timeouts', () => {
    const read = new EnvReader({});
    expect(readRedisSettings(read, TIMEOUTS)).toEqual({
      url: 'redis://127.0.0.1:6379',
      clusterNodes: [],
      keyPrefix: '',
      ...TIMEOUTS,
    });
    expect(problemsOf(read)).toEqual([]);
  });

  it('reads every variable', () => {
    const read = new EnvReader({
      REDIS_URL: 'rediss://r:6380',
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, [::1]:7001',
      REDIS_KEY_PREFIX: 'tl:',
      REDIS_COMMAND_TIMEOUT_MS: '80',
      REDIS_CONNECT_TIMEOUT_MS: '900',
      REDIS_MAX_RECONNECT_DELAY_MS: '700',
    });
    expect(readRedisSettings(read, TIMEOUTS)).toEqual({
      url: 'rediss://r:6380',
      clusterNodes: ['10.0.0.1:7000', '[::1]:7001'],
      keyPrefix: 'tl:',
      commandTimeoutMs: 80,
      connectTimeoutMs: 900,
      maxReconnectDelayMs: 700,
    });
    expect(problemsOf(read)).toEqual([]);
  });

  it('names each bad value: a prefix with braces, a node without a port, a non-Redis URL, a timeout out of range', () => {
    const read = new EnvReader({
      REDIS_URL: 'http://r',
      REDIS_CLUSTER_NODES: 'nohost',
      REDIS_KEY_PREFIX: '{a}',
      REDIS_COMMAND_TIMEOUT_MS: '5',
    });
    readRedisSettings(read, TIMEOUTS);
    const problems = problemsOf(read);
    expect(problems).toHaveLength(4);
    for (const name of ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_KEY_PREFIX', 'REDIS_COMMAND_TIMEOUT_MS'])
      expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
  });
});

describe('readTelephonyToken', () => {
  it('is empty when unset or blank, else the trimmed value', () => {
    expect(readTelephonyToken(new EnvReader({}))).toBe('');
    expect(readTelephonyToken(new EnvReader({ TELEPHONY_TOKEN: '  ' }))).toBe('');
    expect(readTelephonyToken(new EnvReader({ TELEPHONY_TOKEN: ' tok ' }))).toBe('tok');
  });
});
