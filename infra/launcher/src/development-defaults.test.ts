import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LauncherError } from './launcher-error';
import { developmentSettings, loadDevelopmentSecrets, LOOPBACK_WEBHOOK_HOSTS } from './development-defaults';

describe('loadDevelopmentSecrets', () => {
  let folder: string;
  let file: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'trackline-dev-secrets-'));
    file = path.join(folder, 'dev-secrets.json');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('generates the secrets once, saves them readable by the owner only, and returns the same ones later', () => {
    const first = loadDevelopmentSecrets(file);
    expect(first.telephonyToken).toMatch(/^[\w-]{32}$/);
    expect(first.twilioAuthToken).toMatch(/^[0-9a-f]{32}$/);
    expect(first.postgresPassword).toMatch(/^[\w-]{24}$/);
    expect(new Set(Object.values(first)).size).toBe(3);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadDevelopmentSecrets(file)).toEqual(first);
  });

  it('adds a missing secret without changing the saved ones', () => {
    writeFileSync(file, JSON.stringify({ postgresPassword: 'kept-password', telephonyToken: '' }));
    const secrets = loadDevelopmentSecrets(file);
    expect(secrets.postgresPassword).toBe('kept-password');
    expect(secrets.telephonyToken).not.toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
  });

  it('stops on a damaged file instead of replacing the password the database was made with', () => {
    writeFileSync(file, '{ not json');
    expect(() => loadDevelopmentSecrets(file)).toThrow(LauncherError);
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});

describe('developmentSettings', () => {
  const secrets = { postgresPassword: 'pw', telephonyToken: 'tel-token', twilioAuthToken: 'twilio-token' };

  it('fills every unset variable and prints each with what production sets instead', () => {
    const { env, lines } = developmentSettings({}, secrets, '/data/dev-secrets.json');
    expect(env).toEqual({
      TELEPHONY_TOKEN: 'tel-token',
      TWILIO_AUTH_TOKEN: 'twilio-token',
      WEBHOOK_INSECURE_HOSTS: LOOPBACK_WEBHOOK_HOSTS,
    });
    const text = lines.join('\n');
    expect(text).toMatch(/^ {2}TELEPHONY_TOKEN +tel-token$/m);
    expect(text).toMatch(/^ {2}TWILIO_AUTH_TOKEN +twilio-token$/m);
    expect(text).toMatch(/^ {2}WEBHOOK_INSECURE_HOSTS +127\.0\.0\.1,localhost,::1$/m);
    expect(text.match(/in production/g)).toHaveLength(3);
    expect(text).toContain('saved in /data/dev-secrets.json');
  });

  it('leaves a variable the operator set alone and does not print its value', () => {
    const { env, lines } = developmentSettings(
      { telephonyToken: 'operator-token', webhookInsecureHosts: 'hooks.test' },
      secrets,
      '/data/dev-secrets.json',
    );
    expect(env).toEqual({ TWILIO_AUTH_TOKEN: 'twilio-token' });
    const text = lines.join('\n');
    expect(text).toMatch(/^ {2}TELEPHONY_TOKEN +\(from the environment\)$/m);
    expect(text).not.toContain('operator-token');
    expect(text).not.toContain('tel-token');
  });
});
