import { createHash } from 'node:crypto';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import {
  decodePartnerConfig,
  decodeProjectionGeneration,
  partnerKeys,
  PROJECTION_VERSION,
  projectionKeys,
} from '@trackline/contracts';
import { Redis } from 'ioredis';
import { createManagementDataSource } from '../composition/management-data-source';
import { runCli } from './run-cli';

describe('operator CLI', () => {
  let database: TestDatabase;
  // The commands project into Redis; a namespace of this file's own keeps the shared server clean.
  const redis: TestRedis = createTestRedis();

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
    await redis.cleanup();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      {
        DATABASE_URL: database.url,
        DIGEST_REALM: 'Trackline',
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.keyPrefix,
      },
      {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      },
    );
    return { code, out, err };
  }

  async function partnerRow(name: string): Promise<Record<string, unknown>> {
    const dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    try {
      const [row] = await dataSource.query('SELECT * FROM partners WHERE name = $1', [name]);
      return row;
    } finally {
      await dataSource.destroy();
    }
  }

  const create = [
    'partner:create',
    '--name',
    'acme',
    '--username',
    'acme-api',
    '--password',
    'correct horse',
    '--signing-secret',
    'a-signing-secret-of-32-characters',
  ];

  it('migrates, and finds nothing to do the second time', async () => {
    const again = await cli('migrate');
    expect(again).toEqual({ code: 0, out: ['Database schema is up to date; no migration applied'], err: [] });
  });

  it('creates a partner with defaults and repeated --allow-ip, storing only the HA1', async () => {
    const result = await cli(...create, '--allow-ip', '192.0.2.10', '--allow-ip', '2001:db8::/32');
    expect(result.code).toBe(0);
    expect(result.err).toEqual([]);
    expect(result.out[0]).toBe('Created partner acme');
    expect(result.out).toContain('  allowed IPs:     192.0.2.10/32, 2001:db8::/32');
    expect(result.out).toContain('  signing secret:  a-si… (33 characters)');
    expect(result.out.join('\n')).not.toContain('a-signing-secret-of-32-characters');

    const row = await partnerRow('acme');
    expect(row).toMatchObject({
      digest_username: 'acme-api',
      ha1_md5: createHash('md5').update('acme-api:Trackline:correct horse').digest('hex'),
      country: 'NO',
      time_zone: 'Europe/Oslo',
      dni_on_exhausted: 'recycle',
      show_full_anum: false,
      allow_ips: ['192.0.2.10/32', '2001:db8::/32'],
    });
    expect(JSON.stringify(row)).not.toContain('correct horse');
  });

  it('refuses bad input with one line on stderr and exit code 1', async () => {
    expect(
      await cli(...create.slice(0, 5), '--password', 'short', '--signing-secret', 'x'.repeat(16)),
    ).toEqual({
      code: 1,
      out: [],
      err: ['error: password: must be at least 8 characters'],
    });
    expect(await cli(...create)).toEqual({
      code: 1,
      out: [],
      err: ['error: name: is already taken by another partner'],
    });
    const missing = await cli('partner:create', '--name', 'x');
    expect(missing.code).toBe(1);
    expect(missing.err).toEqual([
      expect.stringMatching(/^error: required option '--username <username>' not specified$/),
    ]);
    const unknown = await cli('partner:delete');
    expect(unknown.code).toBe(1);
    expect(unknown.err[0]).toMatch(/unknown command 'partner:delete'/);
  });

  it('updates only the options given', async () => {
    const result = await cli(
      'partner:update',
      '--name',
      'acme',
      '--timezone',
      'UTC',
      '--show-full-anum',
      '1',
      '--fallback-number',
      '22 33 44 55',
    );
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe('Updated partner acme: timezone, fallback-number, show-full-anum');
    expect(await partnerRow('acme')).toMatchObject({
      time_zone: 'UTC',
      show_full_anum: true,
      dni_fallback_number: '+4722334455',
      allow_ips: ['192.0.2.10/32', '2001:db8::/32'],
    });
    expect(await cli('partner:update', '--name', 'nobody', '--timezone', 'UTC')).toEqual({
      code: 1,
      out: [],
      err: ['error: partner nobody not found'],
    });
    expect((await cli('partner:update', '--name', 'acme', '--show-full-anum', 'yes')).err).toEqual([
      'error: show-full-anum: must be "0" or "1"',
    ]);
  });

  it('defines custom fields idempotently', async () => {
    expect(
      (await cli('custom-field:define', '--partner', 'acme', '--entity', 'customer', '--field', 'custom_1'))
        .out,
    ).toEqual(['Defined customer field custom_1 of partner acme']);
    expect(
      await cli('custom-field:define', '--partner', 'acme', '--entity', 'customer', '--field', 'custom_1'),
    ).toEqual({
      code: 0,
      out: ['Already defined: customer field custom_1 of partner acme; nothing changed'],
      err: [],
    });
    expect(
      (await cli('custom-field:define', '--partner', 'acme', '--entity', 'customer', '--field', 'email')).err,
    ).toEqual(['error: field: email is already a field of every customer']);
  });

  it('lists partners with secrets shortened', async () => {
    const result = await cli('partner:list');
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^ID\s+NAME\s+USERNAME\s+SIGNING SECRET/);
    expect(result.out[1]).toMatch(
      /^\d+\s+acme\s+acme-api\s+a-si… \(33 characters\)\s+192\.0\.2\.10\/32, 2001:db8::\/32\s+NO\s+UTC/,
    );
    expect(result.out[1]).toContain('customer: custom_1');
    expect(result.out.join('\n')).not.toContain('a-signing-secret-of-32-characters');
  });

  it('lists partners as JSON for scripts, without HA1 or whole secrets', async () => {
    const result = await cli('partner:list', '--json');
    expect(result.code).toBe(0);
    expect(result.out).toHaveLength(1);
    expect(JSON.parse(result.out[0]!)).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        name: 'acme',
        username: 'acme-api',
        signingSecret: 'a-si… (33 characters)',
        allowIps: ['192.0.2.10/32', '2001:db8::/32'],
        country: 'NO',
        timeZone: 'UTC',
        dni: {
          sessionTtlSeconds: 1800,
          holdBackSeconds: 600,
          onExhausted: 'recycle',
          fallbackNumber: '+4722334455',
        },
        showFullAnum: true,
        cdrRetentionMonths: 24,
        anumMaskAfterDays: null,
        rateLimitPerMinute: null,
        pool: { targetOverflow: 0.01, exhaustedShare: 0.05 },
        customFields: { customer: ['custom_1'], source: [] },
      },
    ]);
  });

  it("sets a partner's own rate limit, none with 0, and returns it to the default", async () => {
    const limited = await cli('partner:update', '--name', 'acme', '--rate-limit-per-minute', '120');
    expect([limited.code, limited.out[0]]).toEqual([0, 'Updated partner acme: rate-limit-per-minute']);
    expect(limited.out).toContain('  rate limit:      120 requests per minute');
    expect((await partnerRow('acme')).rate_limit_per_minute).toBe(120);
    expect((await cli('partner:list')).out[1]).toMatch(/\s120$/);

    const unlimited = await cli('partner:update', '--name', 'acme', '--rate-limit-per-minute', '0');
    expect(unlimited.out).toContain('  rate limit:      none');
    expect((await partnerRow('acme')).rate_limit_per_minute).toBe(0);
    expect((await cli('partner:list')).out[1]).toMatch(/\snone$/);

    const reset = await cli('partner:update', '--name', 'acme', '--rate-limit-per-minute', 'default');
    expect(reset.out).toContain('  rate limit:      default (RATE_LIMIT_PER_MINUTE)');
    expect((await partnerRow('acme')).rate_limit_per_minute).toBeNull();
    expect((await cli('partner:list')).out[1]).toMatch(/\sdefault$/);

    for (const bad of ['-1', '1000001', '1.5', 'lots'])
      expect(await cli('partner:update', '--name', 'acme', '--rate-limit-per-minute', bad)).toEqual({
        code: 1,
        out: [],
        err: [
          'error: rate-limit-per-minute: must be a whole number from 0 (no limit) to 1000000, or "default"',
        ],
      });
    expect((await partnerRow('acme')).rate_limit_per_minute).toBeNull();
  });

  it('projects partners into Redis and rebuilds the projections', async () => {
    const client = new Redis(redis.url);
    try {
      const config = partnerKeys(redis.keyPrefix, 'acme').config;
      expect(decodePartnerConfig(await client.hgetall(config))?.advId).toBe('acme');
      await client.del(config);
      const rebuilt = await cli('projections:rebuild');
      expect(rebuilt.code).toBe(0);
      expect(rebuilt.out).toEqual([
        'Rebuilt projections of 1 partner: 0 pool numbers, 0 static routes, 0 answering numbers; removed 0 stale index entries',
        expect.stringMatching(/^Generation [0-9a-f]{16} marked complete$/),
      ]);
      expect(decodePartnerConfig(await client.hgetall(config))?.advId).toBe('acme');
      // The marker names the rebuild the command just made (docs/redis-keys.md, Projection generation).
      const generationId = /^Generation ([0-9a-f]{16})/.exec(rebuilt.out[1]!)![1];
      const marker = decodeProjectionGeneration(await client.get(projectionKeys(redis.keyPrefix).generation));
      expect(marker).toEqual(expect.objectContaining({ id: generationId, version: PROJECTION_VERSION }));
    } finally {
      client.disconnect();
    }
  });

  it('creates a partner with its own rate limit', async () => {
    const created = await cli(
      'partner:create',
      '--name',
      'bulk',
      '--username',
      'bulk-api',
      '--password',
      'correct horse',
      '--signing-secret',
      'another-signing-secret',
      '--rate-limit-per-minute',
      '6000',
    );
    expect([created.code, created.err]).toEqual([0, []]);
    expect(created.out).toContain('  rate limit:      6000 requests per minute');
    expect((await partnerRow('bulk')).rate_limit_per_minute).toBe(6000);
  });

  it('reports a bad environment as a refusal', async () => {
    const err: string[] = [];
    const code = await runCli(
      ['partner:list'],
      { DATABASE_URL: 'mysql://nowhere' },
      { out: () => undefined, err: (line) => err.push(line) },
    );
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^error: DATABASE_URL/)]);
  });
});
