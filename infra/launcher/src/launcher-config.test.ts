import { loadLauncherConfig } from './launcher-config';

describe('loadLauncherConfig', () => {
  it('uses the documented defaults, with the data folder under the repository root', () => {
    expect(loadLauncherConfig({}, '/repo')).toEqual({
      rootDir: '/repo',
      dataDir: '/repo/.data',
      databaseUrl: undefined,
      embeddedPostgresPort: 5433,
      development: { telephonyToken: undefined, twilioAuthToken: undefined, webhookInsecureHosts: undefined },
      redisUrl: 'redis://127.0.0.1:6379',
      managementPort: 8443,
      replacementPort: 8080,
      healthTimeoutMs: 60_000,
    });
  });

  it('keeps the development settings the operator set, blank counting as unset', () => {
    const config = loadLauncherConfig(
      { TELEPHONY_TOKEN: ' switch-token ', TWILIO_AUTH_TOKEN: '', WEBHOOK_INSECURE_HOSTS: 'hooks.test' },
      '/repo',
    );
    expect(config.development).toEqual({
      telephonyToken: 'switch-token',
      twilioAuthToken: undefined,
      webhookInsecureHosts: 'hooks.test',
    });
  });

  it('names every bad variable at once, and a port of 0 is refused (Postgres needs a fixed one)', () => {
    expect(() =>
      loadLauncherConfig(
        { DATABASE_URL: 'mysql://x', EMBEDDED_POSTGRES_PORT: '0', REDIS_URL: 'http://r' },
        '/repo',
      ),
    ).toThrow(/DATABASE_URL=.*\n.*EMBEDDED_POSTGRES_PORT=.*\n.*REDIS_URL=/);
  });
});
