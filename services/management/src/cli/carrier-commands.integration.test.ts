import { numberIndexKey, partnerKeys } from '@trackline/contracts';
import {
  createTestDatabase,
  createTestRedis,
  TwilioNumbersSimulator,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import { runCli } from './run-cli';

const REPLACEMENT_URL = 'https://calls.example.com';
const MANAGEMENT_URL = 'https://manage.example.com/trackline';

// The operator's carrier commands against real Postgres and Redis and the Twilio simulator: what
// the carrier saw, what the inventory and the Redis number index hold afterwards, and that every
// refusal (the carrier's or ours) changes nothing.
describe('carrier:set, numbers:buy, numbers:release, carrier:reconcile', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let redisClient: Redis;
  const redis: TestRedis = createTestRedis();
  const twilio = new TwilioNumbersSimulator();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    redisClient = new Redis(redis.url);
    await twilio.start();
    for (const name of ['acme', 'beta']) {
      const created = await cli(
        'partner:create',
        '--name',
        name,
        '--username',
        `${name}-api`,
        '--password',
        'correct horse',
        '--signing-secret',
        'a-signing-secret-of-32-characters',
        '--country',
        'US',
      );
      expect(created.code).toBe(0);
    }
  });

  afterAll(async () => {
    await twilio.stop();
    redisClient.disconnect();
    await dataSource.destroy();
    await database.drop();
    await redis.cleanup();
  });

  beforeEach(() => {
    twilio.requests.length = 0;
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      {
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: redis.keyPrefix,
        REPLACEMENT_PUBLIC_URL: REPLACEMENT_URL,
        MANAGEMENT_PUBLIC_URL: MANAGEMENT_URL,
        CARRIER_RETRY_DELAY_MS: '5',
        CARRIER_RATE_LIMIT_RETRIES: '2',
      },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, out, err };
  }

  async function inventory(): Promise<Array<{ e164: string; kind: string; partner: string }>> {
    return dataSource.query(
      `SELECT t.e164, t.kind, p.name AS partner FROM tracking_numbers t JOIN partners p ON p.id = t.partner_id
        ORDER BY t.e164`,
    );
  }

  async function purchases(): Promise<Array<{ e164: string; state: string }>> {
    return dataSource.query(`SELECT e164, state FROM carrier_purchases ORDER BY id`);
  }

  const setAccount = (token = twilio.authToken) =>
    cli(
      'carrier:set',
      '--partner',
      'acme',
      '--account-sid',
      twilio.accountSid,
      '--auth-token',
      token,
      '--base-url',
      `${twilio.baseUrl}/`,
    );

  it('refuses to buy for a partner without a carrier account', async () => {
    const result = await cli('numbers:buy', '--partner', 'beta');
    expect(result).toEqual({
      code: 1,
      out: [],
      err: [
        'error: No carrier account is set up; set one with PUT /v1/carrier_account or carrier:set (account_sid, auth_token)',
      ],
    });
    expect(twilio.requests).toEqual([]);
  });

  it.each([
    [
      ['--account-sid', 'AC123'],
      'error: account_sid: must match ^AC[0-9a-f]{32}$ (a Twilio account SID) or be a SignalWire project id (a lowercase UUID)',
    ],
    [
      ['--account-sid', `AC${'a'.repeat(32)}`],
      'error: auth_token: is required (no carrier account is set up yet)',
    ],
    [
      ['--account-sid', `AC${'a'.repeat(32)}`, '--auth-token', 'x', '--base-url', 'ftp://example.com'],
      'error: base_url: must be an http:// or https:// URL of at most 500 characters, without user, query or fragment (https://api.twilio.com)',
    ],
  ])('carrier:set refuses %p naming the field', async (args, message) => {
    expect(await cli('carrier:set', '--partner', 'acme', ...args)).toEqual({
      code: 1,
      out: [],
      err: [message],
    });
  });

  it('sets the account and never prints the token', async () => {
    const result = await setAccount();
    expect(result.code).toBe(0);
    expect(result.out).toEqual([
      'Carrier account of partner acme set:',
      `  account_sid: ${twilio.accountSid}`,
      `  base_url: ${twilio.baseUrl}`,
      '  auth_token_set: 1',
      expect.stringMatching(/^ {2}modified: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    ]);
    const shown = await cli('carrier:show', '--partner', 'acme');
    expect(shown.out.join('\n')).not.toContain(twilio.authToken);
    const [row] = (await dataSource.query(`SELECT secrets FROM carrier_accounts`)) as Array<{
      secrets: unknown;
    }>;
    expect(row!.secrets).toEqual({ authToken: twilio.authToken });
  });

  it('buys numbers pointed at the webhooks and adds them to the inventory and the Redis index', async () => {
    twilio.stock({ country: 'US', areaCode: '510', count: 3 });
    const result = await cli('numbers:buy', '--partner', 'acme', '--count', '2', '--area-code', '510');
    expect(result).toEqual({
      code: 0,
      out: ['Bought 2 pool numbers for partner acme:', '  +15105550000', '  +15105550001'],
      err: [],
    });
    expect(await inventory()).toEqual([
      { e164: '+15105550000', kind: 'pool', partner: 'acme' },
      { e164: '+15105550001', kind: 'pool', partner: 'acme' },
    ]);
    const bought = twilio.purchases();
    expect(bought.map((request) => request.form)).toEqual(
      ['+15105550000', '+15105550001'].map((number) => ({
        PhoneNumber: number,
        VoiceUrl: `${REPLACEMENT_URL}/telephony/twilio/voice`,
        VoiceMethod: 'POST',
        StatusCallback: `${MANAGEMENT_URL}/telephony/twilio/call-status`,
        StatusCallbackMethod: 'POST',
        FriendlyName: expect.stringMatching(/^trackline [0-9a-f-]{36}$/),
      })),
    );
    expect(twilio.requests.find((request) => request.method === 'GET')!.query).toEqual({
      AreaCode: '510',
      PageSize: '7',
    });
    expect(await purchases()).toEqual([
      { e164: '+15105550000', state: 'done' },
      { e164: '+15105550001', state: 'done' },
    ]);
    expect(await redisClient.hget(numberIndexKey(redis.keyPrefix), '+15105550000')).not.toBeNull();
  });

  it('refuses with 20003 on a wrong token and changes nothing', async () => {
    await setAccount('wrong-token');
    const before = { inventory: await inventory(), purchases: await purchases() };
    const result = await cli('numbers:buy', '--partner', 'acme', '--area-code', '510');
    expect(result).toEqual({
      code: 1,
      out: [],
      err: [
        'error: carrier answered HTTP 401, code 20003: Authenticate (check the carrier account: account_sid and auth_token)',
      ],
    });
    expect(result.err.join()).not.toContain('wrong-token');
    expect({ inventory: await inventory(), purchases: await purchases() }).toEqual(before);
    expect(twilio.purchases()).toEqual([]);
    await setAccount();
  });

  it('answers "not available" (21422) when nothing matches, and changes nothing', async () => {
    const before = await inventory();
    const result = await cli('numbers:buy', '--partner', 'acme', '--area-code', '999');
    expect(result).toEqual({
      code: 1,
      out: [],
      err: [
        'error: carrier answered HTTP 400, code 21422: only 0 of 1 numbers available at the carrier for country US, area code 999',
      ],
    });
    expect(await inventory()).toEqual(before);
  });

  it('skips a number the carrier refuses with 21422 and buys the next one', async () => {
    twilio.stock({ country: 'US', areaCode: '415', count: 2 });
    twilio.failWith(
      1,
      { status: 400, code: 21422, message: 'PhoneNumber +14155550000 is not available.' },
      'POST',
    );
    const result = await cli('numbers:buy', '--partner', 'acme', '--area-code', '415', '--kind', 'static');
    expect(result.out).toEqual(['Bought 1 static number for partner acme:', '  +14155550001']);
    expect((await purchases()).slice(-2)).toEqual([
      { e164: '+14155550000', state: 'abandoned' },
      { e164: '+14155550001', state: 'done' },
    ]);
    expect((await inventory()).map((row) => row.e164)).not.toContain('+14155550000');
  });

  it('retries a 429 and reports it once the retries are used up, changing nothing', async () => {
    twilio.stock({ country: 'US', areaCode: '212', count: 2 });
    twilio.rateLimit(2);
    const retried = await cli('numbers:buy', '--partner', 'acme', '--area-code', '212');
    expect(retried.out).toEqual(['Bought 1 pool number for partner acme:', '  +12125550000']);
    expect(twilio.requests.map((request) => request.status)).toEqual([429, 429, 200, 201]);

    const before = await inventory();
    twilio.rateLimit(3);
    const reported = await cli('numbers:buy', '--partner', 'acme', '--area-code', '212');
    expect(reported).toEqual({
      code: 1,
      out: [],
      err: ['error: carrier answered HTTP 429, code 20429: Too Many Requests (try again later)'],
    });
    expect(await inventory()).toEqual(before);
  });

  it('releases a number found on a later page, removes it from the inventory and Redis, and quarantines it', async () => {
    // 60 numbers on the account and a list that does not filter: the one released is on the
    // second page of 50.
    twilio.phoneNumberFilter = 'ignored';
    for (let i = 0; i < 60; i++) twilio.own(`+1650555${String(i).padStart(4, '0')}`);
    const target = '+16505550055';
    expect((await cli('numbers:add', '--partner', 'acme', '--kind', 'pool', target)).code).toBe(0);
    const sid = twilio.ownedNumbers().find((number) => number.phoneNumber === target)!.sid;

    const result = await cli('numbers:release', '--partner', 'acme', '(650) 555-0055');
    expect(result).toEqual({
      code: 0,
      out: [
        expect.stringMatching(
          /^Released \+16505550055 at the carrier, removed from partner acme's inventory, quarantined until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
        ),
      ],
      err: [],
    });
    const lists = twilio.requests.filter((request) => request.method === 'GET');
    expect(lists.map((request) => request.query.Page ?? '0')).toEqual(['0', '1']);
    twilio.phoneNumberFilter = 'exact';
    expect(twilio.requests.at(-1)).toMatchObject({ method: 'DELETE', status: 204 });
    expect(twilio.requests.at(-1)!.path).toContain(sid);
    expect((await inventory()).map((row) => row.e164)).not.toContain(target);
    expect(await redisClient.hget(numberIndexKey(redis.keyPrefix), target)).toBeNull();

    const again = await cli('numbers:add', '--partner', 'acme', '--kind', 'pool', target);
    expect(again.code).toBe(1);
    expect(again.err[0]).toMatch(
      /^error: numbers: released by this partner less than 90 days ago \(quarantine\), nothing added: \+16505550055 \(until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/,
    );
    // Another partner is not held back.
    expect((await cli('numbers:add', '--partner', 'beta', '--kind', 'pool', target)).code).toBe(0);
  });

  it('refuses to release a pool number with a live binding, and leaves everything as it was', async () => {
    const number = '+15105550000';
    await redisClient.zadd(partnerKeys(redis.keyPrefix, 'acme').pool, Date.now() + 600_000, number);
    const before = await inventory();
    const result = await cli('numbers:release', '--partner', 'acme', number);
    expect(result).toEqual({
      code: 1,
      out: [],
      err: [
        'error: number: +15105550000 has a live binding (a visitor session or its hold-back); try again when it ended; nothing released',
      ],
    });
    expect(await inventory()).toEqual(before);
    expect(twilio.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    await redisClient.zadd(partnerKeys(redis.keyPrefix, 'acme').pool, 0, number);
  });

  it('keeps the inventory as it was when the carrier fails the release', async () => {
    const number = '+15105550001';
    twilio.failWith(1, { status: 500, code: 20500, message: 'Internal Server Error' }, 'DELETE');
    const before = await inventory();
    const result = await cli('numbers:release', '--partner', 'acme', number);
    expect(result).toEqual({
      code: 1,
      out: [],
      err: ['error: carrier answered HTTP 500, code 20500: Internal Server Error (try again later)'],
    });
    expect(await inventory()).toEqual(before);
    expect(twilio.ownedNumbers().map((owned) => owned.phoneNumber)).toContain(number);
  });

  it('reconciles an unfinished purchase the carrier completed, and abandons one it did not', async () => {
    const [acme] = (await dataSource.query(`SELECT id FROM partners WHERE name = 'acme'`)) as Array<{
      id: string;
    }>;
    twilio.own('+17185550001', 'trackline crashed-1');
    for (const [e164, key] of [
      ['+17185550001', 'trackline crashed-1'],
      ['+17185550002', 'trackline crashed-2'],
    ]) {
      await dataSource.query(
        `INSERT INTO carrier_purchases (partner_id, e164, kind, friendly_name, state, created, modified)
         VALUES ($1, $2, 'pool', $3, 'intent', now(), now())`,
        [acme!.id, e164, key],
      );
    }
    const result = await cli('carrier:reconcile');
    expect(result.out).toEqual([
      'partner acme: added +17185550001 (bought before a crash)',
      'partner acme: +17185550002 was not bought; nothing to do',
    ]);
    expect((await purchases()).slice(-2)).toEqual([
      { e164: '+17185550001', state: 'done' },
      { e164: '+17185550002', state: 'abandoned' },
    ]);
    expect((await inventory()).filter((row) => row.e164.startsWith('+1718'))).toEqual([
      { e164: '+17185550001', kind: 'pool', partner: 'acme' },
    ]);
    expect((await cli('carrier:reconcile')).out).toEqual(['No unfinished carrier purchases.']);
  });

  it('keeps the purchases of a partner without a carrier account unfinished, and exits 1', async () => {
    const [beta] = (await dataSource.query(`SELECT id FROM partners WHERE name = 'beta'`)) as Array<{
      id: string;
    }>;
    await dataSource.query(
      `INSERT INTO carrier_purchases (partner_id, e164, kind, friendly_name, state, created, modified)
       VALUES ($1, '+17185550009', 'pool', 'trackline orphan', 'intent', now(), now())`,
      [beta!.id],
    );
    expect(await cli('carrier:reconcile')).toEqual({
      code: 1,
      out: [],
      err: [
        'partner beta: +17185550009 still unfinished: No carrier account is set up; set one with PUT /v1/carrier_account or carrier:set (account_sid, auth_token)',
        'error: 1 purchase still unfinished; run carrier:reconcile again once the carrier answers',
      ],
    });
    expect((await purchases()).at(-1)).toEqual({ e164: '+17185550009', state: 'intent' });
    await dataSource.query(
      `UPDATE carrier_purchases SET state = 'abandoned' WHERE friendly_name = 'trackline orphan'`,
    );
  });
});
