import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { isPostgresProcess, readPostmasterPid } from './postmaster-lock';
import type { PostgresIdentity } from './postgres-identity';
import { descendantPids, freePort, killGroup } from './test-support/launcher-process';

// initdb on first use and a server start, on a machine shared with other test runs.
jest.setTimeout(120_000);

// The host's TypeScript source, run through the require hook (no build needed).
const HOST_ARGS = [
  '-r',
  path.join(__dirname, '..', 'test', 'swc-register.js'),
  path.join(__dirname, 'embedded-postgres-host.ts'),
];

describe('embedded Postgres (the embedded-postgres package, run by the launcher)', () => {
  let folder: string;
  let dataDir: string;
  let port: number;
  const lines: string[] = [];
  const running: EmbeddedPostgres[] = [];
  const clients: Client[] = [];

  beforeEach(async () => {
    // A private folder (mode 0700), as a root user's home is: the server must start in it all the same.
    folder = mkdtempSync(path.join(tmpdir(), 'trackline-embedded-pg-'));
    dataDir = path.join(folder, 'postgres');
    port = await freePort();
    lines.length = 0;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
    await Promise.all(running.splice(0).map((postgres) => postgres.stop()));
    rmSync(folder, { recursive: true, force: true });
  });

  async function start(identity?: PostgresIdentity): Promise<EmbeddedPostgres> {
    const postgres = await startEmbeddedPostgres({
      dataDir,
      port,
      password: 'test-password',
      write: (line) => void lines.push(line),
      hostArgs: HOST_ARGS,
      ...(identity === undefined ? {} : { identity }),
    });
    running.push(postgres);
    return postgres;
  }

  async function connect(url: string): Promise<Client> {
    const client = new Client({ connectionString: url });
    clients.push(client);
    await client.connect();
    return client;
  }

  it('creates a cluster in an empty folder and serves separate sessions at once', async () => {
    const postgres = await start();
    expect(postgres.url).toBe(`postgres://postgres:test-password@127.0.0.1:${port}/postgres`);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(lines.some((line) => /creating a new database cluster/.test(line))).toBe(true);

    // A wrong password is refused: the cluster was made with the one given.
    await expect(connect(postgres.url.replace('test-password', 'wrong'))).rejects.toThrow(
      /password authentication failed/,
    );

    const [first, second] = await Promise.all([connect(postgres.url), connect(postgres.url)]);
    // Separate sessions: an advisory lock held by one excludes the other (the migration lock relies on it).
    expect((await first.query(`SELECT pg_try_advisory_lock(42) AS got`)).rows[0].got).toBe(true);
    expect((await second.query(`SELECT pg_try_advisory_lock(42) AS got`)).rows[0].got).toBe(false);
    // An open transaction is invisible to the other session until it commits.
    await first.query('CREATE TABLE calls (id int PRIMARY KEY)');
    await first.query('BEGIN');
    await first.query('INSERT INTO calls VALUES (1)');
    expect((await second.query('SELECT count(*)::int AS n FROM calls')).rows[0].n).toBe(0);
    await first.query('COMMIT');
    expect((await second.query('SELECT count(*)::int AS n FROM calls')).rows[0].n).toBe(1);

    // Extended-protocol statements of different shapes from eight connections at once: every answer
    // belongs to its own statement and parameters.
    const pool = await Promise.all(Array.from({ length: 8 }, () => connect(postgres.url)));
    const answers = await Promise.all(
      pool.map(async (client, k) => {
        const seen: string[] = [];
        for (let i = 0; i < 25; i++) {
          const row =
            k % 2 === 0
              ? (await client.query<{ a: string }>('SELECT $1::text AS a', [`${k}:${i}`])).rows[0].a
              : (await client.query<{ a: string }>('SELECT $1::text || $2::text AS a', [`${k}:`, String(i)]))
                  .rows[0].a;
          seen.push(row);
        }
        return seen;
      }),
    );
    answers.forEach((seen, k) => expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `${k}:${i}`)));
  });

  it("starts in a folder only its user can enter, and the cluster is that user's (root included)", async () => {
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const postgres = await start();
    const client = await connect(postgres.url);
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    // Root's cluster stays root's (run in a user namespace), not handed to another user.
    expect(statSync(path.join(dataDir, 'PG_VERSION')).uid).toBe(process.getuid!());
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    'as root without a user namespace, names the folder the postgres user cannot enter and the fix',
    async () => {
      const failure = start({ kind: 'postgres-user', why: 'forced by the test' });
      await expect(failure).rejects.toThrow(/did not start \(exit 1\); see the postgres lines above\.$/);
      expect(lines).toContainEqual(
        expect.stringContaining(`that user cannot enter ${folder} (on the way to ${folder})`),
      );
      expect(lines).toContainEqual(expect.stringContaining(`chmod o+x ${folder}`));
      expect(existsSync(dataDir)).toBe(false);
    },
  );

  it('keeps its data across a stop and a new start', async () => {
    const postgres = await start();
    const before = await connect(postgres.url);
    await before.query(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')`);
    await before.end();
    clients.length = 0;
    await running.pop()!.stop();
    expect(readPostmasterPid(path.join(dataDir, 'postmaster.pid'))).toBeUndefined();

    const again = await start();
    expect(lines.filter((line) => /creating a new database cluster/.test(line))).toHaveLength(1);
    const after = await connect(again.url);
    expect((await after.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
  });

  it('ends its host when the server dies on its own, so the launcher can stop everything', async () => {
    const postgres = await start();
    const serverPid = readPostmasterPid(path.join(dataDir, 'postmaster.pid'))!;
    process.kill(serverPid, 'SIGKILL');
    expect(await postgres.exited).toBe(1);
    running.length = 0;
    expect(lines).toContainEqual(expect.stringContaining(`the server (pid ${serverPid}) has exited`));
  });

  it('starts after a killed run, whether its server died with it or was left running', async () => {
    await start();
    const pidFile = path.join(dataDir, 'postmaster.pid');
    const serverPid = readPostmasterPid(pidFile)!;
    expect(isPostgresProcess(serverPid)).toBe(true);

    // Only the host is killed (as when the launcher dies without its orderly stop): the server runs on.
    const hostPid = hostOf(serverPid);
    process.kill(hostPid, 'SIGKILL');
    running.length = 0;
    expect(isPostgresProcess(serverPid)).toBe(true);
    await start();
    expect(lines).toContainEqual(expect.stringMatching(/stopped a server an earlier, killed start had left/));
    expect(isPostgresProcess(serverPid)).toBe(false);

    // Now the host's whole group, server included, dies at once: postmaster.pid stays behind.
    const secondServer = readPostmasterPid(pidFile)!;
    killGroup(hostOf(secondServer));
    running.length = 0;
    await waitUntil(() => !isPostgresProcess(secondServer));
    expect(readPostmasterPid(pidFile)).toBe(secondServer);
    const last = await start();
    const client = await connect(last.url);
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});

/** The node process that started the server: the one whose descendants include it. */
function hostOf(serverPid: number): number {
  const host = descendantPids(process.pid).find((pid) => descendantPids(pid).includes(serverPid));
  if (host === undefined) throw new Error(`no host process above the server ${serverPid}`);
  return host;
}

async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}
