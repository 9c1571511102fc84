import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';

// PGlite boots a WebAssembly Postgres (initdb on first use): allow it time on a busy machine.
jest.setTimeout(120_000);

interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

// PGlite cannot load inside jest's sandbox (see test/swc-register.js), so it runs in a child process,
// which is also how the services reach it: over TCP from another process.
async function startEmbeddedPostgres(options: { dataDir: string }): Promise<EmbeddedPostgres> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-r',
      path.join(__dirname, '..', 'test', 'swc-register.js'),
      path.join(__dirname, 'embedded-postgres.fixture.ts'),
      options.dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    exited.then(([code]) => Promise.reject(new Error(`embedded Postgres exited with ${String(code)}`))),
  ]);
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    port: Number(new URL(url).port),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      // A clean stop flushes PGlite and exits 0; anything else would lose data.
      expect(code).toBe(0);
    },
  };
}

describe('embedded Postgres (PGlite over the wire protocol)', () => {
  let dataDir: string;
  let postgres: EmbeddedPostgres | undefined;
  const clients: Client[] = [];

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'trackline-pglite-'));
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
    await postgres?.stop();
    postgres = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function connect(url: string): Promise<Client> {
    const client = new Client({ connectionString: url });
    clients.push(client);
    await client.connect();
    return client;
  }

  it('serves two connections at once, with transactions, parameters and advisory locks', async () => {
    postgres = await startEmbeddedPostgres({ dataDir });
    expect(postgres.url).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/postgres`);
    const [first, second] = await Promise.all([connect(postgres.url), connect(postgres.url)]);

    await first.query('CREATE TABLE calls (id int PRIMARY KEY, caller text NOT NULL)');

    // A transaction on one connection: the other connection's statement waits for its turn and then
    // sees the committed row, never a half-done transaction.
    await first.query('BEGIN');
    await first.query('INSERT INTO calls VALUES ($1, $2)', [1, '+4722334455']);
    const seenBySecond = second.query<{ n: string }>('SELECT count(*) AS n FROM calls');
    await first.query('INSERT INTO calls VALUES ($1, $2)', [2, '+4722334466']);
    await first.query('COMMIT');
    expect((await seenBySecond).rows[0].n).toBe('2');

    // A rolled-back transaction leaves nothing behind.
    await second.query('BEGIN');
    await second.query('INSERT INTO calls VALUES ($1, $2)', [3, '+4722334477']);
    await second.query('ROLLBACK');
    expect((await first.query('SELECT id FROM calls ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);

    // Extended-protocol statements of different shapes from four connections at once (a pool's
    // pattern): each answer must belong to its own statement and parameters.
    const pool = [first, second, await connect(postgres.url), await connect(postgres.url)];
    const sums = await Promise.all(
      pool.map(async (client, k) => {
        const answers: number[] = [];
        for (let i = 0; i < 15; i++) {
          if (k % 2 === 0) {
            answers.push((await client.query<{ a: number }>('SELECT $1::int AS a', [i])).rows[0].a);
          } else {
            const row = (
              await client.query<{ b: string; c: number }>('SELECT $1::text AS b, $2::int AS c', [`n${i}`, k])
            ).rows[0];
            answers.push(Number(row.b.slice(1)) + row.c - k);
          }
        }
        return answers;
      }),
    );
    for (const answers of sums) expect(answers).toEqual(Array.from({ length: 15 }, (_, i) => i));

    // The migration lock: taken, visible in pg_locks, released. Both connections share PGlite's one
    // session, so the second one's attempt succeeds instead of waiting (it never hangs).
    await first.query(`SELECT pg_advisory_lock(hashtext('trackline.test'))`);
    const held = await second.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'`,
    );
    expect(held.rows[0].n).toBe('1');
    await first.query(`SELECT pg_advisory_unlock(hashtext('trackline.test'))`);
    const released = await second.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'`,
    );
    expect(released.rows[0].n).toBe('0');

    // Transaction-scoped advisory locks (TypeORM migrations may use them) end with the transaction.
    await second.query('BEGIN');
    await second.query(`SELECT pg_advisory_xact_lock(7)`);
    await second.query('COMMIT');

    // uuid-ossp is loaded for TypeORM's uuid primary keys; gen_random_uuid is built in.
    await first.query('CREATE EXTENSION IF NOT EXISTS "uuid-ossp"');
    const ids = await first.query<{ a: string; b: string }>(
      'SELECT uuid_generate_v4() AS a, gen_random_uuid() AS b',
    );
    expect(ids.rows[0].a).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids.rows[0].b).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps its data in the folder across a stop and a new start', async () => {
    postgres = await startEmbeddedPostgres({ dataDir });
    const before = await connect(postgres.url);
    await before.query(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')`);
    await before.end();
    clients.length = 0;
    await postgres.stop();

    postgres = await startEmbeddedPostgres({ dataDir });
    const after = await connect(postgres.url);
    expect((await after.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
  });
});
