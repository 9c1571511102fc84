import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';

// PGlite boots a WebAssembly Postgres (initdb on first use): allow it time on a busy machine.
jest.setTimeout(180_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'services/management/dist/cli.js');
const DATA_SOURCE = path.join(ROOT, 'services/management/dist/db/data-source.js');
const CALLER = '+4791234567';

type Row = Record<string, unknown>;

// The embedded Postgres of `pnpm start` (docs/operations.md): the monthly partitions of "cdrs", their
// migration up and down with records in it, and the lifecycle commands, on PGlite as on Postgres.
describe('cdrs partitions and the data lifecycle on the embedded Postgres', () => {
  let dataDir: string;
  let child: ChildProcess;
  let exited: Promise<unknown[]>;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run pnpm build first`);
    dataDir = mkdtempSync(path.join(tmpdir(), 'trackline-pglite-cdrs-'));
    child = spawn(
      process.execPath,
      [
        '-r',
        path.join(__dirname, '..', 'test', 'swc-register.js'),
        path.join(__dirname, 'embedded-postgres.fixture.ts'),
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    exited = once(child, 'exit');
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    url = (JSON.parse(line) as { url: string }).url;
    expect(cli('migrate').status).toBe(0);
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    if (child?.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: url,
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `tl-pglite-${process.pid}:`,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  const query = async (sql: string, values: unknown[] = []): Promise<Row[]> =>
    (await client.query(sql, values)).rows as Row[];
  const kind = async (): Promise<string> =>
    (await query(`SELECT relkind FROM pg_class WHERE relname = 'cdrs'`))[0]!.relkind as string;
  const records = (): Promise<Row[]> =>
    query(`SELECT id::text, call_id, tableoid::regclass::text AS partition, anum FROM cdrs ORDER BY id`);
  const dayCounts = (): Promise<Row[]> =>
    query(`SELECT day::text, count FROM cdr_day_counts WHERE count > 0 ORDER BY day`);
  const insert = (callId: string, start: string): Promise<Row[]> =>
    query(
      `INSERT INTO cdrs (call_id, partner_id, customer_id, start, duration, anum, bnum, answered, voicemail,
         quarantined, recording, timestamp)
       VALUES ($1, 1, 1, $2, 10, $3, '+4722000001', true, false, false, '\\x01', now())`,
      [callId, start, CALLER],
    );

  it('keeps records, ids, day counts and call-id idempotency through the migration down and up', async () => {
    expect(await kind()).toBe('p');
    await query(
      `INSERT INTO partners (name, digest_username, ha1_md5, ha1_sha256, signing_secret)
       VALUES ('acme', 'acme', 'x', 'y', 'sixteen-chars-ok')`,
    );
    await query(`INSERT INTO customers (partner_id, name, custnr) VALUES (1, 'Kari', 'K-1')`);
    await insert('recent', new Date(Date.now() - 86_400_000).toISOString());
    await insert('ancient', '2020-03-01T10:00:00Z');
    await expect(insert('recent', '2021-01-01T00:00:00Z')).rejects.toThrow(/UQ_cdrs_call_id/);
    const before = await records();
    expect(before.map((row) => row.partition)).toEqual([
      `cdrs_${new Date(Date.now() - 86_400_000).toISOString().slice(0, 7).replace('-', '_')}`,
      'cdrs_default',
    ]);
    const counts = await dayCounts();
    expect(counts).toHaveLength(2);

    const undo = spawnSync(
      process.execPath,
      [
        '-e',
        `const { createDataSource } = require(${JSON.stringify(DATA_SOURCE)});
         (async () => {
           const dataSource = createDataSource(process.argv[1]);
           await dataSource.initialize();
           for (;;) {
             const [row] = await dataSource.query("SELECT name FROM migrations ORDER BY id DESC LIMIT 1");
             await dataSource.undoLastMigration();
             if (row.name.startsWith('PartitionCdrsByMonth')) break;
           }
           await dataSource.destroy();
         })().catch((error) => { console.error(error); process.exit(1); });`,
        url,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(undo.stderr).toBe('');
    expect(await kind()).toBe('r');
    // Unpartitioned, every record is in "cdrs" itself.
    expect(await records()).toEqual(before.map((row) => ({ ...row, partition: 'cdrs' })));
    expect(await dayCounts()).toEqual(counts);

    expect(cli('migrate').status).toBe(0);
    expect(await kind()).toBe('p');
    // Made again from the records it found, the table now has a month for the old record too.
    expect(await records()).toEqual([before[0], { ...before[1], partition: 'cdrs_2020_03' }]);
    expect(await dayCounts()).toEqual(counts);
    await expect(insert('ancient', '2026-01-01T00:00:00Z')).rejects.toThrow(/UQ_cdrs_call_id/);
  });

  it('creates months ahead, runs the retention and erases a caller through the CLI', async () => {
    const partitions = cli('cdrs:partitions', '--months-ahead', '6');
    expect(partitions.stdout).toMatch(/Created partition cdrs_\d{4}_\d{2}/);
    expect(partitions.stdout).toContain('cdrs_default is empty');
    expect(cli('cdrs:partitions', '--months-ahead', '6').stdout).toBe(
      'Every month up to then has its partition\ncdrs_default is empty\n',
    );

    const run = cli('data-lifecycle:run');
    expect(run.status).toBe(0);
    // Every partner (one, keeping 24 months) is done with March 2020: the month is dropped whole.
    expect(run.stdout).toMatch(
      /Months dropped: (cdrs_\d{4}_\d{2}, )*cdrs_2020_03(, cdrs_\d{4}_\d{2})* \(1 records\)/,
    );
    expect(run.stdout).toContain('Records deleted one by one: 0');
    expect(run.stdout).toContain('Recordings deleted: 1');
    expect(run.stdout).toContain('Records in cdrs_default: 0');
    expect((await records()).map((row) => row.call_id)).toEqual(['recent']);

    const erase = cli('privacy:erase', '--partner', 'acme', '--caller', CALLER);
    expect(erase.stderr).toBe('');
    expect(erase.stdout).toContain('  call records masked:          1');
    expect(erase.stdout).toContain('  recordings deleted:           1');
    expect(await query(`SELECT anum, recording FROM cdrs`)).toEqual([
      { anum: '+479xxxxxxx', recording: null },
    ]);
  });
});
