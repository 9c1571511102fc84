import { ConfigError } from '@trackline/platform';
import { loadReplacementConfig } from './replacement-config';

describe('loadReplacementConfig', () => {
  it('has working defaults', () => {
    const config = loadReplacementConfig({});
    expect(config.port).toBe(8080);
    expect(config.redis).toMatchObject({
      url: 'redis://127.0.0.1:6379',
      clusterNodes: [],
      keyPrefix: '',
      commandTimeoutMs: 100,
    });
    expect(config.partnerConfigCacheMs).toBe(1000);
    expect(config.telephonyToken).toBe('');
  });

  // The settings that bound a request and a reconnection while a Redis Cluster master fails over,
  // measured with these values in docs/operations.md (Redis Cluster failover).
  it('fails a request on Redis within its answer budget and reconnects within a second', () => {
    const config = loadReplacementConfig({});
    expect(config.redis).toMatchObject({
      commandTimeoutMs: 100,
      connectTimeoutMs: 1000,
      maxReconnectDelayMs: 1000,
    });
    expect(config.storeDeadlineMs).toBe(150);
  });

  it('reads every variable', () => {
    const config = loadReplacementConfig({
      REPLACEMENT_PORT: '9090', REPLACEMENT_HOST: '127.0.0.1', REDIS_URL: 'redis://r:6380',
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001', REDIS_KEY_PREFIX: 'tl:', REDIS_COMMAND_TIMEOUT_MS: '80',
      TELEPHONY_TOKEN: 'tok', LOG_LEVEL: 'warn', PARTNER_CONFIG_CACHE_MS: '0', REQUEST_STORE_DEADLINE_MS: '120',
    }); // prettier-ignore
    expect(config).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      telephonyToken: 'tok',
      logLevel: 'warn',
      partnerConfigCacheMs: 0,
      storeDeadlineMs: 120,
    });
    expect(config.redis).toMatchObject({
      url: 'redis://r:6380',
      clusterNodes: ['10.0.0.1:7000', '10.0.0.2:7001'],
      keyPrefix: 'tl:',
      commandTimeoutMs: 80,
    });
  });

  it('names every bad value in one error', () => {
    expect(() =>
      loadReplacementConfig({
        REPLACEMENT_PORT: 'x',
        PARTNER_CONFIG_CACHE_MS: '5000',
        REDIS_KEY_PREFIX: '{a}',
        REDIS_CLUSTER_NODES: 'nohost',
      }),
    ).toThrow(ConfigError);
    try {
      loadReplacementConfig({
        REPLACEMENT_PORT: 'x',
        PARTNER_CONFIG_CACHE_MS: '5000',
        REDIS_KEY_PREFIX: '{a}',
        REDIS_CLUSTER_NODES: 'nohost',
      });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of [
        'REPLACEMENT_PORT',
        'PARTNER_CONFIG_CACHE_MS',
        'REDIS_KEY_PREFIX',
        'REDIS_CLUSTER_NODES',
      ])
        expect(message).toContain(name);
    }
  });
});

describe('provider webhook settings', () => {
  it('default to where pnpm start serves the services, and drop a trailing slash', () => {
    expect(loadReplacementConfig({ REPLACEMENT_PORT: '9090', MANAGEMENT_PORT: '9443' }).twilio).toEqual({
      authToken: '',
      publicUrl: 'http://127.0.0.1:9090',
      managementPublicUrl: 'https://127.0.0.1:9443',
      ringTimeoutSeconds: 20,
      greetingLinkSeconds: 3600,
      voicemailMaxSeconds: 120,
    });
    const set = loadReplacementConfig({
      TWILIO_AUTH_TOKEN: 'token',
      REPLACEMENT_PUBLIC_URL: 'https://calls.example.com/trackline/',
      MANAGEMENT_PUBLIC_URL: 'https://manage.example.com/',
      TWILIO_RING_TIMEOUT_SECONDS: '30',
    }).twilio;
    expect(set).toMatchObject({
      authToken: 'token',
      publicUrl: 'https://calls.example.com/trackline',
      managementPublicUrl: 'https://manage.example.com',
      ringTimeoutSeconds: 30,
    });
  });

  it('refuses a public URL that is not http(s) and a ring timeout out of range', () => {
    expect(() => loadReplacementConfig({ REPLACEMENT_PUBLIC_URL: 'ftp://x' })).toThrow(
      /REPLACEMENT_PUBLIC_URL/,
    );
    expect(() => loadReplacementConfig({ TWILIO_RING_TIMEOUT_SECONDS: '2' })).toThrow(
      /TWILIO_RING_TIMEOUT_SECONDS/,
    );
  });
});
