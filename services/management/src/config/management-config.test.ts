import { ConfigError } from '@trackline/platform';
import { loadManagementConfig } from './management-config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadManagementConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('loadManagementConfig', () => {
  it('sizes the pools and times the connections as node-postgres and the service always did', () => {
    const config = loadManagementConfig({});
    expect(config).toMatchObject({
      databasePoolSize: 10,
      databaseReadPoolSize: 10,
      databaseIngestionPoolSize: 10,
      readinessTimeoutMs: 1_000,
      shutdownTimeoutMs: 10_000,
      telephonyToken: '',
      notifications: { databasePoolSize: 4 },
      reports: { databasePoolSize: 1 },
      dataLifecycle: { databasePoolSize: 2 },
      customerEvents: { connectTimeoutMs: 5_000, commandMarginMs: 5_000 },
      cli: { redisCommandTimeoutMs: 2_000, redisMaxReconnectDelayMs: 500 },
    });
    expect(config.redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      clusterNodes: [],
      keyPrefix: '',
      commandTimeoutMs: 500,
      connectTimeoutMs: 2_000,
      maxReconnectDelayMs: 5_000,
    });
  });

  it('reads the pool sizes and timeouts', () => {
    const config = loadManagementConfig({
      DATABASE_POOL_SIZE: '25',
      NOTIFY_DATABASE_POOL_SIZE: '3',
      INGESTION_DATABASE_POOL_SIZE: '6',
      REDIS_MAX_RECONNECT_DELAY_MS: '800',
      READINESS_TIMEOUT_MS: '300',
      SHUTDOWN_TIMEOUT_MS: '0',
      CLI_REDIS_COMMAND_TIMEOUT_MS: '900',
    });
    expect(config.databasePoolSize).toBe(25);
    expect(config.notifications.databasePoolSize).toBe(3);
    expect(config.databaseIngestionPoolSize).toBe(6);
    expect(config.redis.maxReconnectDelayMs).toBe(800);
    expect(config.readinessTimeoutMs).toBe(300);
    expect(config.shutdownTimeoutMs).toBe(0);
    expect(config.cli.redisCommandTimeoutMs).toBe(900);
  });

  it('sends repeated statements prepared unless DATABASE_PREPARED_STATEMENTS is off (docs/operations.md)', () => {
    expect(loadManagementConfig({}).databasePreparedStatements).toBe(true);
    expect(loadManagementConfig({ DATABASE_PREPARED_STATEMENTS: 'on' }).databasePreparedStatements).toBe(
      true,
    );
    expect(loadManagementConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(
      false,
    );
    const problems = problemsOf({ DATABASE_PREPARED_STATEMENTS: 'yes' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_PREPARED_STATEMENTS/);
  });

  it('parses TRUST_PROXY and METRICS_ALLOW_IP into address lists, loopback by default for metrics', () => {
    const config = loadManagementConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' });
    expect(config.trustProxy.contains('10.1.2.3')).toBe(true);
    expect(config.trustProxy.contains('192.168.0.1')).toBe(false);
    expect(config.metricsAllowIp.entries).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadManagementConfig({}).trustProxy.isEmpty).toBe(true);
  });

  it('stops the start naming each bad address list, pool size and shared Redis value', () => {
    const problems = problemsOf({
      TRUST_PROXY: '10.0.0.0/8,not-an-address',
      METRICS_ALLOW_IP: '300.1.1.1',
      DATABASE_POOL_SIZE: '0',
      REDIS_KEY_PREFIX: 'a b',
      REDIS_CLUSTER_NODES: 'nohost',
    });
    expect(problems).toHaveLength(5);
    for (const name of [
      'TRUST_PROXY',
      'METRICS_ALLOW_IP',
      'DATABASE_POOL_SIZE',
      'REDIS_KEY_PREFIX',
      'REDIS_CLUSTER_NODES',
    ])
      expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
  });
});
