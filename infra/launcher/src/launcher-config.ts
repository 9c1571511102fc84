import path from 'node:path';
import { EnvReader, type Env } from '@trackline/platform';
import type { DevelopmentOverrides } from './development-defaults';

/** What `pnpm start` needs to know, read once from the environment. */
export interface LauncherConfig {
  /** Repository root: the services' entry points are found under it. */
  rootDir: string;
  /** Everything the launcher keeps between runs (Postgres and Redis data, demo partner, dev secrets). */
  dataDir: string;
  /** An external Postgres; when unset the launcher runs an embedded one. */
  databaseUrl?: string;
  /** Loopback port of the embedded Postgres (5433, beside a machine's own Postgres on 5432). */
  embeddedPostgresPort: number;
  /** The operator's own values; unset ones get development defaults (development-defaults.ts). */
  development: DevelopmentOverrides;
  redisUrl: string;
  managementPort: number;
  replacementPort: number;
  /** How long both services get to answer /health before the start is given up. */
  healthTimeoutMs: number;
}

// dist/launcher-config.js sits in infra/launcher/dist, three levels below the repository root.
const DEFAULT_ROOT = path.resolve(__dirname, '..', '..', '..');

export function loadLauncherConfig(env: Env, rootDir: string = DEFAULT_ROOT): LauncherConfig {
  const read = new EnvReader(env);
  const config: LauncherConfig = {
    rootDir,
    dataDir: path.resolve(rootDir, read.string('DATA_DIR', '.data')),
    databaseUrl: read.url('DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    embeddedPostgresPort: read.integer('EMBEDDED_POSTGRES_PORT', 5433, { min: 1, max: 65535 }),
    development: {
      telephonyToken: read.optionalString('TELEPHONY_TOKEN'),
      twilioAuthToken: read.optionalString('TWILIO_AUTH_TOKEN'),
      webhookInsecureHosts: read.optionalString('WEBHOOK_INSECURE_HOSTS'),
    },
    redisUrl: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
    managementPort: read.port('MANAGEMENT_PORT', 8443),
    replacementPort: read.port('REPLACEMENT_PORT', 8080),
    healthTimeoutMs: read.integer('LAUNCHER_HEALTH_TIMEOUT_MS', 60_000, { min: 1000, max: 600_000 }),
  };
  read.done();
  return config;
}
