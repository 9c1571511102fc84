import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import {
  createTestDatabase,
  createTestRedis,
  TwilioNumbersSimulator,
  type TestDatabase,
  type TestRedis,
} from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { runCli } from '../cli/run-cli';
import { createManagementDataSource } from '../composition/management-data-source';

// "A crash between the carrier's purchase and the inventory insert neither loses the number nor
// buys it twice" (docs/carrier-numbers.md, Idempotent buying): the operator's CLI, a real process,
// kills itself with SIGKILL right after the carrier's 201 (the test seam carrier-failpoint.ts);
// a restarted process finishes the purchase from the carrier's own list.

const TEST_TIMEOUT_MS = 60_000;

describe('numbers:buy killed with SIGKILL between the carrier and the inventory (real processes)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const redis: TestRedis = createTestRedis();
  const twilio = new TwilioNumbersSimulator();

  const env = (): Record<string, string> => ({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: redis.keyPrefix,
    REPLACEMENT_PUBLIC_URL: 'https://calls.example.com',
    MANAGEMENT_PUBLIC_URL: 'https://manage.example.com',
    LOG_LEVEL: 'warn',
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    await twilio.start();
    const output = { out: () => undefined, err: (line: string) => console.error(line) };
    const create = [
      ...['partner:create', '--name', 'acme', '--username', 'acme-api', '--password', 'correct horse'],
      ...['--signing-secret', 'a-signing-secret-of-32-characters', '--country', 'US'],
    ];
    expect(await runCli(create, env(), output)).toBe(0);
    const account = [
      '--account-sid',
      twilio.accountSid,
      '--auth-token',
      twilio.authToken,
      '--base-url',
      twilio.baseUrl,
    ];
    expect(await runCli(['carrier:set', '--partner', 'acme', ...account], env(), output)).toBe(0);
  });

  afterAll(async () => {
    await twilio.stop();
    await dataSource.destroy();
    await database.drop();
    await redis.cleanup();
  });

  /** The CLI as the operator runs it, from the sources; resolves with its exit and its output. */
  async function cliProcess(
    argv: string[],
    extraEnv: Record<string, string> = {},
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(__dirname, '..', 'test-support', 'ts-register.js'),
        path.join(__dirname, '..', 'cli.ts'),
        ...argv,
      ],
      { env: { PATH: process.env.PATH ?? '', ...env(), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    return { code, signal, output };
  }

  async function inventory(): Promise<string[]> {
    const rows = (await dataSource.query(`SELECT e164 FROM tracking_numbers ORDER BY e164`)) as Array<{
      e164: string;
    }>;
    return rows.map((row) => row.e164);
  }

  async function purchaseStates(): Promise<Array<{ e164: string; state: string; sid: string | null }>> {
    return dataSource.query(`SELECT e164, state, sid FROM carrier_purchases ORDER BY id`);
  }

  it(
    'after the restart the number is in the inventory once, bought once; a later buy finishes a crashed one first',
    async () => {
      twilio.stock({ country: 'US', areaCode: '510', count: 3 });
      const killed = await cliProcess(['numbers:buy', '--partner', 'acme', '--area-code', '510'], {
        TRACKLINE_TEST_FAILPOINT: 'carrier-after-purchase',
      });
      expect({ code: killed.code, signal: killed.signal }).toEqual({ code: null, signal: 'SIGKILL' });
      // The carrier sold it; nothing of the answer reached the database.
      expect(twilio.purchases().map((request) => request.form.PhoneNumber)).toEqual(['+15105550000']);
      expect(await inventory()).toEqual([]);
      expect(await purchaseStates()).toEqual([{ e164: '+15105550000', state: 'intent', sid: null }]);

      const restarted = await cliProcess(['carrier:reconcile']);
      expect(restarted).toMatchObject({ code: 0, signal: null });
      expect(restarted.output).toBe('partner acme: added +15105550000 (bought before a crash)\n');
      const sid = twilio.ownedNumbers()[0]!.sid;
      expect(await inventory()).toEqual(['+15105550000']);
      expect(await purchaseStates()).toEqual([{ e164: '+15105550000', state: 'done', sid }]);
      expect(twilio.purchases()).toHaveLength(1);

      // Killed again; this time the next numbers:buy itself finishes the crashed purchase first.
      const again = await cliProcess(['numbers:buy', '--partner', 'acme', '--area-code', '510'], {
        TRACKLINE_TEST_FAILPOINT: 'carrier-after-purchase',
      });
      expect(again.signal).toBe('SIGKILL');
      const next = await cliProcess(['numbers:buy', '--partner', 'acme', '--area-code', '510']);
      expect(next).toMatchObject({
        code: 0,
        output: 'Bought 1 pool number for partner acme:\n  +15105550002\n',
      });
      expect(await inventory()).toEqual(['+15105550000', '+15105550001', '+15105550002']);
      expect(twilio.purchases().map((request) => request.form.PhoneNumber)).toEqual([
        '+15105550000',
        '+15105550001',
        '+15105550002',
      ]);
      expect((await purchaseStates()).map((row) => row.state)).toEqual(['done', 'done', 'done']);
    },
    TEST_TIMEOUT_MS,
  );
});
