import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { runCli } from './run-cli';

describe('numbers:add and numbers:list', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  // The commands project into Redis; a namespace of this file's own keeps the shared server clean.
  const redis: TestRedis = createTestRedis();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    for (const name of ['acme', 'beta']) {
      const result = await cli(
        'partner:create',
        '--name',
        name,
        '--username',
        `${name}-api`,
        '--password',
        'correct horse',
        '--signing-secret',
        'a-signing-secret-of-32-characters',
      );
      expect(result.code).toBe(0);
    }
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
    await redis.cleanup();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out, err };
  }

  async function stored(): Promise<Array<{ e164: string; kind: string; partner: string }>> {
    return dataSource.query(
      `SELECT t.e164, t.kind, p.name AS partner FROM tracking_numbers t JOIN partners p ON p.id = t.partner_id
        ORDER BY t.e164`,
    );
  }

  it('adds single numbers and inclusive ranges, printing what it added', async () => {
    const result = await cli(
      'numbers:add',
      '--partner',
      'acme',
      '--kind',
      'pool',
      '+4791000001-+4791000003',
      '+4791000009',
    );
    expect(result).toEqual({
      code: 0,
      out: [
        'Added 4 pool numbers to partner acme:',
        '  +4791000001',
        '  +4791000002',
        '  +4791000003',
        '  +4791000009',
      ],
      err: [],
    });
    const statics = await cli('numbers:add', '--partner', 'acme', '--kind', 'static', '+4722000001');
    expect(statics.out[0]).toBe('Added 1 static number to partner acme:');
    expect(await stored()).toEqual([
      { e164: '+4722000001', kind: 'static', partner: 'acme' },
      { e164: '+4791000001', kind: 'pool', partner: 'acme' },
      { e164: '+4791000002', kind: 'pool', partner: 'acme' },
      { e164: '+4791000003', kind: 'pool', partner: 'acme' },
      { e164: '+4791000009', kind: 'pool', partner: 'acme' },
    ]);
  });

  it('refuses duplicates, also of another partner, naming them and adding nothing', async () => {
    const before = await stored();
    const result = await cli(
      'numbers:add',
      '--partner',
      'beta',
      '--kind',
      'static',
      '+4791000000-+4791000002',
      '+4722000001',
    );
    expect(result).toEqual({
      code: 1,
      out: [],
      err: [
        'error: numbers: already in the inventory, nothing added: +4722000001 (acme, static), +4791000001 (acme, pool), +4791000002 (acme, pool)',
      ],
    });
    const repeated = await cli(
      'numbers:add',
      '--partner',
      'beta',
      '--kind',
      'pool',
      '+4792000001-+4792000003',
      '+4792000002',
    );
    expect(repeated.code).toBe(1);
    expect(repeated.err).toEqual(['error: numbers: name these more than once: +4792000002']);
    expect(await stored()).toEqual(before);
  });

  it.each([
    [['--kind', 'dynamic', '+4791000100'], 'error: kind: must be one of pool, static'],
    [['--kind', 'pool', '1234'], 'error: 1234: must be a phone number, or two phone numbers joined by "-"'],
    [
      ['--kind', 'pool', 'tel:91000100'],
      'error: tel:91000100: must be a phone number, or two phone numbers joined by "-"',
    ],
    [
      ['--kind', 'pool', '+4791000105-+4791000100'],
      'error: +4791000105-+4791000100: range start must not be after its end',
    ],
  ])('refuses bad input %p with one line', async (args, message) => {
    const result = await cli('numbers:add', '--partner', 'acme', ...args);
    expect(result).toEqual({ code: 1, out: [], err: [message] });
  });

  // The one rule of every edge (docs/switch.md, "Numbers"): national, 00- and grouped spellings in the
  // partner's country, for single numbers and range ends alike.
  it("reads any spelling in the partner's country and stores E.164", async () => {
    const result = await cli(
      'numbers:add',
      '--partner',
      'acme',
      '--kind',
      'pool',
      '91000200',
      '0047 910 00 201',
      '91 00 02 02-+4791000203',
    );
    expect(result).toEqual({
      code: 0,
      out: [
        'Added 4 pool numbers to partner acme:',
        '  +4791000200',
        '  +4791000201',
        '  +4791000202',
        '  +4791000203',
      ],
      err: [],
    });
    expect((await stored()).filter((row) => row.e164.startsWith('+47910002'))).toEqual(
      ['+4791000200', '+4791000201', '+4791000202', '+4791000203'].map((e164) => ({
        e164,
        kind: 'pool',
        partner: 'acme',
      })),
    );
  });

  it('refuses an unknown partner', async () => {
    const result = await cli('numbers:add', '--partner', 'nobody', '--kind', 'pool', '+4791000100');
    expect(result).toEqual({ code: 1, out: [], err: ['error: partner nobody not found'] });
  });

  it('lists each number with its kind and use: a source, free, or held back', async () => {
    await cli('numbers:add', '--partner', 'beta', '--kind', 'static', '+4723000001-+4723000003');
    const [{ id: betaId }] = await dataSource.query(`SELECT id FROM partners WHERE name = 'beta'`);
    const [{ id: customerId }] = await dataSource.query(
      `INSERT INTO customers (partner_id, name, custnr) VALUES ($1, 'Kari', 'K-1') RETURNING id`,
      [betaId],
    );
    const [{ id: sourceId }] = await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, activated_at)
       VALUES ($1, $2, 'web', '+4722334455', '+4723000001', now()) RETURNING id`,
      [betaId, customerId],
    );
    await dataSource.query(`UPDATE tracking_numbers SET free_since = NULL WHERE e164 = '+4723000001'`);
    await dataSource.query(
      `UPDATE tracking_numbers SET held_until = '2999-01-02 03:04:05+00', free_since = '2999-01-02 03:04:05+00'
        WHERE e164 = '+4723000002'`,
    );
    await cli('numbers:add', '--partner', 'beta', '--kind', 'pool', '+4793000001');

    const result = await cli('numbers:list', '--partner', 'beta');
    expect(result).toEqual({
      code: 0,
      out: [
        'KIND    NUMBER       USE',
        'pool    +4793000001  pool',
        `static  +4723000001  source ${sourceId}`,
        'static  +4723000002  held until 2999-01-02 03:04:05 UTC',
        'static  +4723000003  free',
      ],
      err: [],
    });
  });

  it('says so when a partner has no numbers', async () => {
    await cli(
      'partner:create',
      '--name',
      'empty',
      '--username',
      'empty-api',
      '--password',
      'correct horse',
      '--signing-secret',
      'a-signing-secret-of-32-characters',
    );
    expect(await cli('numbers:list', '--partner', 'empty')).toEqual({
      code: 0,
      out: ['Partner empty has no tracking numbers; add some with numbers:add.'],
      err: [],
    });
  });
});
