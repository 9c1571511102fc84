import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { runConcurrencyProbe, parse, partnerGet, type ProbeCustomer } from './test-support/concurrency-probe';
import { digestRequest, digestGet, probe, type ProbeResult } from './test-support/http-probe';
import {
  descendantPids,
  freePort,
  isAlive,
  killGroup,
  portIsFree,
  spawnLauncher,
  type LauncherProcess,
} from './test-support/launcher-process';

// What `pnpm start` runs, end to end: the built launcher, which runs the built services and CLI.
const ROOT = path.resolve(__dirname, '..', '..', '..');
const BUILT = [
  'infra/launcher/dist/start.js',
  'services/management/dist/main.js',
  'services/management/dist/cli.js',
  'services/replacement/dist/main.js',
];
const missing = BUILT.filter((file) => !existsSync(path.join(ROOT, file)));
if (missing.length > 0) {
  console.warn(`Skipping the pnpm start end-to-end test: not built (${missing.join(', ')}); run pnpm build.`);
}
const describeBuilt = missing.length === 0 ? describe : describe.skip;

// Static numbers for the concurrency probe's sources, beside the demo pool (+4791000001–10).
const STATIC_RANGE = '+4791000101-+4791000104';
const RUNNING_LINE = /Press Ctrl-C to stop everything this command started\./;
// First start on an empty folder: initdb, the migrations, demo partner, two services.
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;
jest.setTimeout(240_000);

interface Ports {
  management: number;
  replacement: number;
  postgres: number;
}

describeBuilt('pnpm start (node infra/launcher/dist/start.js) end to end', () => {
  const keyPrefix = `tl-e2e-${randomBytes(6).toString('hex')}:`;
  let dataDir: string | undefined;
  let redisUrl: string | undefined;
  let ports: Ports;
  let launcher: LauncherProcess | undefined;
  // Every process the launchers started, for the cleanup should a test fail half way.
  const started = new Set<number>();

  beforeAll(async () => {
    const testRedis = process.env.TEST_REDIS_URL;
    if (testRedis === undefined || testRedis === '')
      throw new Error(
        'TEST_REDIS_URL is not set: run under jest with the launcher project (its global setup sets it).',
      );
    redisUrl = testRedis;
    // A private folder (mode 0700), as `mktemp -d` makes and as a root user's home is.
    dataDir = mkdtempSync(path.join(tmpdir(), 'trackline-start-e2e-'));
    ports = { management: await freePort(), replacement: await freePort(), postgres: await freePort() };
  });

  afterAll(async () => {
    // A launcher still running (a test failed) is asked for its children before it is killed.
    for (const pid of [...started]) for (const child of descendantPids(pid)) started.add(child);
    for (const pid of started) killGroup(pid);
    await launcher?.exited;
    if (redisUrl !== undefined) expect(await deleteKeys(redisUrl, keyPrefix)).toBe(0);
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  function startLauncher(): LauncherProcess {
    // Only what the launcher needs: no DATABASE_URL (so the embedded Postgres), no TLS files, no
    // settings of the machine.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
      MANAGEMENT_PORT: String(ports.management),
      REPLACEMENT_PORT: String(ports.replacement),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      LOG_LEVEL: 'warn',
    };
    const child = spawnLauncher(path.join(ROOT, 'infra/launcher/dist/start.js'), ROOT, env);
    started.add(child.pid);
    return child;
  }

  async function waitUntilRunning(current: LauncherProcess): Promise<void> {
    await current.waitForOutput(RUNNING_LINE, START_TIMEOUT_MS);
    for (const pid of descendantPids(current.pid)) started.add(pid);
  }

  async function stopWithSigterm(current: LauncherProcess): Promise<void> {
    const children = descendantPids(current.pid);
    // Management and replacement at least (the check below would prove nothing if none were found).
    if (existsSync('/proc')) expect(children.length).toBeGreaterThanOrEqual(2);
    process.kill(current.pid, 'SIGTERM');
    const code = await exitWithin(current, STOP_TIMEOUT_MS);
    expect(code).toBe(0);
    expect(current.output()).toContain('Stopped embedded Postgres');
    expect(children.filter(isAlive)).toEqual([]);
    // Gone: forget them, so the final cleanup cannot hit a process that reuses one of these ids.
    for (const pid of [current.pid, ...children]) started.delete(pid);
    for (const port of Object.values(ports)) expect(await portIsFree(port)).toBe(true);
  }

  // One sequential scenario in one test: each step needs the state the step before left (the data
  // folder a first start filled, the running launcher), so they are not separate tests.
  it(
    'first start on an empty data folder, concurrent clients, SIGTERM, second start on the same folder',
    async () => {
      const firstPassword = await firstStartAnswersTheDemoPartner();
      await everyClientGetsARightAnswer(firstPassword);
      await stopWithSigterm(launcher!);
      await secondStartReusesTheDataFolder(firstPassword);
    },
    // Two starts (the first runs initdb and every migration), the probe and two stops.
    2 * START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS + 60_000,
  );

  /** Brings everything up on an empty data folder; both APIs answer the demo partner. Returns its password. */
  async function firstStartAnswersTheDemoPartner(): Promise<string> {
    launcher = startLauncher();
    await waitUntilRunning(launcher);
    const output = launcher.output();
    expect(output).toContain(
      `Postgres: DATABASE_URL is unset, starting embedded PostgreSQL on 127.0.0.1:${ports.postgres}`,
    );
    expect(output).toMatch(/Migrations: Applied migration /);
    expect(output).toContain('Demo partner (created now;');
    // A pool is what makes the replacement example answer with numbers instead of 501.
    expect(output).not.toContain('could not add demo pool numbers');

    const management = `https://127.0.0.1:${ports.management}`;
    const replacement = `http://127.0.0.1:${ports.replacement}`;
    expect((await probe(`${management}/health`)).status).toBe(200);
    expect((await probe(`${replacement}/health`)).status).toBe(200);

    const firstPassword = summaryValue(output, 'password');
    const ping = await digestGet(
      `${management}/v1/miscellaneous/ping`,
      summaryValue(output, 'username'),
      firstPassword,
    );
    expect(ping.status).toBe(200);
    expect(JSON.parse(ping.text)).toEqual({ ping: 'ok' });

    // The printed curl example, sent as printed: its signature and body must work as they are.
    const example = replacementExample(output);
    expect(example.url.startsWith(`${replacement}/dynamic-numbers?sign=`)).toBe(true);
    const answer = await probe(example.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: example.body,
    });
    expect(answer.status).toBe(200);
    const result = JSON.parse(answer.text) as {
      success: boolean;
      numbers: Array<{ number_on_page: string; replace_with: { e164: string } }>;
    };
    // The whole answer on a failure: in legacy mode an error is a 200 too, and its text says which.
    expect(result).toMatchObject({ success: true });
    expect(result.numbers).toHaveLength(1);
    expect(result.numbers[0].number_on_page).toBe('22334455');
    expect(result.numbers[0].replace_with.e164).toMatch(/^\+47910000(0[1-9]|10)$/);

    // The printed API reference addresses answer without credentials.
    const references = /API reference[^\n]*\n\s+(\S+)\s+(\S+)/.exec(output);
    expect(references?.slice(1)).toEqual([`${management}/docs`, `${replacement}/docs`]);
    for (const url of references!.slice(1)) {
      const page = await probe(url);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<html');
    }
    return firstPassword;
  }

  /** Every client gets a right answer while the switch posts records and partners read at once. */
  async function everyClientGetsARightAnswer(firstPassword: string): Promise<void> {
    // The database and the switch token as printed: the operator CLI line and the development token.
    const output = launcher!.output();
    const databaseUrl = /DATABASE_URL='([^']+)' pnpm trackline partner:list/.exec(output)?.[1];
    expect(databaseUrl).toMatch(
      new RegExp(`^postgres://postgres:[^@]+@127\\.0\\.0\\.1:${ports.postgres}/postgres$`),
    );
    const telephonyToken = summaryValue(output, 'TELEPHONY_TOKEN');
    const partner = {
      managementUrl: `https://127.0.0.1:${ports.management}`,
      username: summaryValue(output, 'username'),
      password: firstPassword,
    };

    // Four customers, each with a source on a static number of its own.
    const numbers = runCli(databaseUrl!, [
      'numbers:add',
      '--partner',
      'demo',
      '--kind',
      'static',
      STATIC_RANGE,
    ]);
    expect(numbers.status).toBe(0);
    const customers: ProbeCustomer[] = [];
    for (let k = 1; k <= 4; k++) {
      const name = `Probe Customer ${k}`;
      const created = await partnerWrite(partner, '/v1/customers', { name, custnr: `P-${k}` });
      expect(created.status).toBe(200);
      const id = String(
        parse<{ customers: Array<{ customer_id: unknown }> }>(created)!.customers[0].customer_id,
      );
      const source = await partnerWrite(partner, '/v1/sources', {
        customer_id: id,
        name: `Ad ${k}`,
        phonenr: '+4722334455',
      });
      expect(source.status).toBe(200);
      const destnr = parse<{ sources: Array<{ destnr: string }> }>(source)!.sources[0].destnr;
      customers.push({ id, custnr: `P-${k}`, name, destnr });
    }
    expect(new Set(customers.map((customer) => customer.destnr)).size).toBe(4);

    const outcome = await runConcurrencyProbe({
      ...partner,
      telephonyToken,
      customers,
      records: 50,
      writers: 5,
    });
    expect(outcome.bad).toEqual([]);

    // Afterwards each customer lists exactly the records the switch was answered 201 for.
    for (const [k, customer] of customers.entries()) {
      const list = await partnerGet(
        partner,
        `/v1/statistics/cdrs?custnr=${customer.custnr}&from_date=2026-03-01&to_date=2026-04-01`,
      );
      expect(list.status).toBe(200);
      const page = parse<{ total: number; cdrs: Array<{ cdr_id: string }> }>(list)!;
      const listed = page.cdrs.map((record) => String(record.cdr_id)).sort();
      expect(listed).toEqual([...outcome.posted.get(customer.custnr)!].sort());
      // Records 0–49 go round the four customers: 13, 13, 12, 12.
      expect(listed).toHaveLength(Math.ceil((50 - k) / 4));
      expect(Number(page.total)).toBe(listed.length);
    }
  }

  /** A second start on the same data folder: the same demo partner, no migration applied. */
  async function secondStartReusesTheDataFolder(firstPassword: string): Promise<void> {
    launcher = startLauncher();
    await waitUntilRunning(launcher);
    const output = launcher.output();
    expect(output).toContain('Migrations: Database schema is up to date; no migration applied');
    expect(output).not.toMatch(/Applied migration/);
    expect(output).toContain('Demo partner (created by an earlier start;');
    expect(summaryValue(output, 'password')).toBe(firstPassword);

    // The partner's password digest lives in the embedded database: accepted again, so the data survived.
    const ping = await digestGet(
      `https://127.0.0.1:${ports.management}/v1/miscellaneous/ping`,
      summaryValue(output, 'username'),
      firstPassword,
    );
    expect(ping.status).toBe(200);

    await stopWithSigterm(launcher);
  }

  function runCli(databaseUrl: string, args: string[]): { status: number | null; output: string } {
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'services/management/dist/cli.js'), ...args],
      {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          REDIS_KEY_PREFIX: keyPrefix,
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  }
});

/** A digest-authenticated JSON POST on the management API, as the partner would make it. */
function partnerWrite(
  partner: { managementUrl: string; username: string; password: string },
  route: string,
  body: Record<string, unknown>,
): Promise<ProbeResult> {
  return digestRequest(`${partner.managementUrl}${route}`, partner.username, partner.password, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function exitWithin(current: LauncherProcess, timeoutMs: number): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still running ${timeoutMs} ms after SIGTERM:\n${current.output()}`)),
      timeoutMs,
    );
  });
  return Promise.race([current.exited, timeout]).finally(() => clearTimeout(timer));
}

/** A `  <label>   <value>` line of the summary. */
function summaryValue(output: string, label: string): string {
  const match = new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm').exec(output);
  if (match === null) throw new Error(`no ${label} line in the launcher's output:\n${output}`);
  return match[1];
}

function replacementExample(output: string): { url: string; body: string } {
  const url = /curl -s -X POST '([^']+)'/.exec(output)?.[1];
  const body = /--data-raw '([^']+)'/.exec(output)?.[1];
  if (url === undefined || body === undefined)
    throw new Error(`no replacement curl example in the launcher's output:\n${output}`);
  return { url, body };
}

/**
 * SCAN + UNLINK of this test's namespace only (other runs share the server); returns how many keys
 * a second scan still finds, which must be none.
 */
async function deleteKeys(url: string, prefix: string): Promise<number> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    let left = 0;
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      left += keys.length;
      cursor = next;
    } while (cursor !== '0');
    return left;
  } finally {
    client.disconnect();
  }
}
