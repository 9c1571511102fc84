import { loadLauncherConfig } from './launcher-config';

describe('loadLauncherConfig', () => {
  it('uses the documented defaults, with the data folder under the repository root', () => {
    expect(loadLauncherConfig({}, '/repo')).toEqual({
      rootDir: '/repo',
      dataDir: '/repo/.data',
      databaseUrl: undefined,
      pglitePort: 0,
      redisUrl: 'redis://127.0.0.1:6379',
      managementPort: 8443,
      replacementPort: 8080,
      healthTimeoutMs: 60_000,
    });
  });

  it('names every bad variable at once', () => {
    expect(() =>
      loadLauncherConfig({ DATABASE_URL: 'mysql://x', PGLITE_PORT: 'abc', REDIS_URL: 'http://r' }, '/repo'),
    ).toThrow(/DATABASE_URL=.*\n.*PGLITE_PORT=.*\n.*REDIS_URL=/);
  });
});
