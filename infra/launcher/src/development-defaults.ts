import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LauncherError } from './launcher-error';

/** Secrets `pnpm start` generates once and keeps in `<data>/dev-secrets.json`, so restarts reuse them. */
export interface DevelopmentSecrets {
  /** The embedded Postgres's "postgres" role; fixed when its cluster is created. */
  postgresPassword: string;
  telephonyToken: string;
  twilioAuthToken: string;
}

/** The settings the operator gave the launcher; unset ones get a development default. */
export interface DevelopmentOverrides {
  telephonyToken?: string;
  twilioAuthToken?: string;
  webhookInsecureHosts?: string;
}

export interface DevelopmentSettings {
  /** Added to the services' environment. */
  env: Record<string, string>;
  /** What the summary prints: each value, where it came from, and what production does instead. */
  lines: string[];
}

/** Receivers on this machine, so a webhook to http://127.0.0.1:… can be tried without TLS. */
export const LOOPBACK_WEBHOOK_HOSTS = '127.0.0.1,localhost,::1';

const generators: Record<keyof DevelopmentSecrets, () => string> = {
  postgresPassword: () => randomBytes(18).toString('base64url'),
  telephonyToken: () => randomBytes(24).toString('base64url'),
  twilioAuthToken: () => randomBytes(16).toString('hex'),
};

/** Reads the saved secrets, generating (and saving) any that are missing. */
export function loadDevelopmentSecrets(file: string): DevelopmentSecrets {
  const saved = readSaved(file);
  const secrets = {} as DevelopmentSecrets;
  let changed = false;
  for (const key of Object.keys(generators) as Array<keyof DevelopmentSecrets>) {
    const value = saved[key];
    if (typeof value === 'string' && value !== '') {
      secrets[key] = value;
    } else {
      secrets[key] = generators[key]();
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}

/**
 * The defaults that make a fresh `pnpm start` usable from this machine: a switch token and a Twilio
 * auth token (so the telephony endpoints and provider webhooks can be tried instead of refusing
 * everyone), and loopback webhook receivers. Each yields to the variable when it is set. Only the
 * launcher applies these; the services themselves never default them (docs/configuration.md).
 */
export function developmentSettings(
  overrides: DevelopmentOverrides,
  secrets: DevelopmentSecrets,
  secretsFile: string,
): DevelopmentSettings {
  const env: Record<string, string> = {};
  const lines = ['Development settings (pnpm start only; set each variable to override it):'];
  const entries: Array<{
    name: string;
    given?: string;
    fallback: string;
    origin: string;
    production: string;
  }> = [
    {
      name: 'TELEPHONY_TOKEN',
      given: overrides.telephonyToken,
      fallback: secrets.telephonyToken,
      origin: `generated, saved in ${secretsFile}`,
      production: "in production set it to the switch's bearer token",
    },
    {
      name: 'TWILIO_AUTH_TOKEN',
      given: overrides.twilioAuthToken,
      fallback: secrets.twilioAuthToken,
      origin: `generated, saved in ${secretsFile}`,
      production: "in production set it to the Twilio account's auth token",
    },
    {
      name: 'WEBHOOK_INSECURE_HOSTS',
      given: overrides.webhookInsecureHosts,
      fallback: LOOPBACK_WEBHOOK_HOSTS,
      origin: 'plain-http webhook receivers on this machine allowed',
      production: 'in production leave it unset (https receivers only)',
    },
  ];
  const width = Math.max(...entries.map((entry) => entry.name.length));
  for (const entry of entries) {
    if (entry.given !== undefined) {
      lines.push(`  ${entry.name.padEnd(width)}  (from the environment)`);
      continue;
    }
    env[entry.name] = entry.fallback;
    lines.push(`  ${entry.name.padEnd(width)}  ${entry.fallback}`);
    lines.push(`  ${''.padEnd(width)}  ${entry.origin}; ${entry.production}`);
  }
  return { env, lines };
}

function readSaved(file: string): Partial<Record<keyof DevelopmentSecrets, unknown>> {
  if (!existsSync(file)) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    // New secrets would not open the existing cluster, whose password was fixed when it was made.
    throw new LauncherError(
      `${file} is not valid JSON: fix it, or remove it together with the embedded database folder beside it.`,
    );
  }
}
