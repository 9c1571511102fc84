import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '@trackline/platform';
import { runCommand, startChild, waitForHealth } from './children';
import { ensureDemoPartner, type RunCli } from './demo-partner';
import { developmentSettings, loadDevelopmentSecrets } from './development-defaults';
import { startEmbeddedPostgres } from './embedded-postgres';
import { loadLauncherConfig, type LauncherConfig } from './launcher-config';
import { LauncherError } from './launcher-error';
import { acquireDataDirLock } from './launcher-lock';
import { ensureRedis, findOnPath } from './local-redis';
import { redact, summaryLines } from './summary';

const write = (line: string): void => void process.stdout.write(`${line}\n`);
const step = (line: string): void => write(`▸ ${line}`);
const NAME_WIDTH = 'replacement'.length;

/** Things to undo on the way out, newest first. */
const cleanups: Array<{ label: string; run: () => Promise<void> }> = [];
let stopping: Promise<void> | undefined;

/**
 * `pnpm start`: the stores that are missing, migrations, a demo partner, both services (docs/operations.md,
 * Running locally).
 */
async function start(config: LauncherConfig): Promise<void> {
  const entries = serviceEntries(config.rootDir);
  const releaseLock = acquireDataDirLock(config.dataDir);
  cleanups.push({ label: 'data folder lock', run: async () => releaseLock() });

  // Redis first: it is the step that can fail for want of an install, so fail before Postgres starts.
  step(`Redis: looking for a server at ${config.redisUrl}`);
  const redis = await ensureRedis({
    url: config.redisUrl,
    dataDir: path.join(config.dataDir, 'redis'),
    findExecutable: (name) => findOnPath(name, process.env.PATH),
    write,
  });
  if (redis.spawned) cleanups.push({ label: 'redis-server', run: redis.stop });
  step(
    redis.spawned
      ? `Redis: started redis-server, data in ${path.join(config.dataDir, 'redis')}`
      : 'Redis: using the server that answered',
  );

  const secretsFile = path.join(config.dataDir, 'dev-secrets.json');
  const secrets = loadDevelopmentSecrets(secretsFile);
  const development = developmentSettings(config.development, secrets, secretsFile);

  let databaseUrl = config.databaseUrl;
  if (databaseUrl !== undefined) {
    step(`Postgres: using DATABASE_URL (${redact(databaseUrl)})`);
  } else {
    const postgresDir = path.join(config.dataDir, 'postgres');
    step(
      `Postgres: DATABASE_URL is unset, starting embedded PostgreSQL on 127.0.0.1:${config.embeddedPostgresPort} (EMBEDDED_POSTGRES_PORT), data in ${postgresDir}`,
    );
    const postgres = await startEmbeddedPostgres({
      dataDir: postgresDir,
      port: config.embeddedPostgresPort,
      password: secrets.postgresPassword,
      write,
    });
    cleanups.push({ label: 'embedded Postgres', run: postgres.stop });
    void postgres.exited.then((code) => onUnexpectedExit('embedded Postgres', code));
    databaseUrl = postgres.url;
    step(`Postgres: embedded server ready at ${redact(databaseUrl)}`);
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...development.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    DATA_DIR: config.dataDir,
    MANAGEMENT_PORT: String(config.managementPort),
    REPLACEMENT_PORT: String(config.replacementPort),
  };
  const runCli: RunCli = (args) =>
    runCommand({ command: process.execPath, args: [entries.cli, ...args], env, cwd: config.rootDir });

  step('Migrations: running management migrate');
  const migrate = await runCli(['migrate']);
  if (migrate.code !== 0) {
    for (const line of `${migrate.stdout}${migrate.stderr}`.trim().split('\n')) write(`migrate | ${line}`);
    throw new LauncherError(`Migrations failed (exit ${String(migrate.code)}); see the lines above.`);
  }
  for (const line of migrate.stdout.trim().split('\n'))
    if (line.trim() !== '') step(`Migrations: ${line.trim()}`);

  step('Demo partner: checking for partners');
  const demoFile = path.join(config.dataDir, 'demo-partner.json');
  const demo = await ensureDemoPartner(runCli, demoFile);
  if (demo.kind === 'created') demo.warnings.forEach((warning) => step(`Demo partner: ${warning}`));

  step('Services: starting management and replacement');
  const children = [
    startChild(
      {
        name: 'management',
        command: process.execPath,
        args: [entries.management],
        env,
        cwd: config.rootDir,
        nameWidth: NAME_WIDTH,
      },
      write,
    ),
    startChild(
      {
        name: 'replacement',
        command: process.execPath,
        args: [entries.replacement],
        env,
        cwd: config.rootDir,
        nameWidth: NAME_WIDTH,
      },
      write,
    ),
  ];
  cleanups.push({
    label: 'services',
    run: () => Promise.all(children.map((child) => child.stop())).then(() => undefined),
  });
  for (const child of children) void child.exited.then((code) => onUnexpectedExit(child.name, code));

  const managementUrl = `https://127.0.0.1:${config.managementPort}`;
  const replacementUrl = `http://127.0.0.1:${config.replacementPort}`;
  await Promise.all([
    waitForHealth(`${managementUrl}/health`, {
      timeoutMs: config.healthTimeoutMs,
      isAlive: children[0].isRunning,
    }),
    waitForHealth(`${replacementUrl}/health`, {
      timeoutMs: config.healthTimeoutMs,
      isAlive: children[1].isRunning,
    }),
  ]).catch((error: Error) => {
    throw new LauncherError(`Services did not come up: ${error.message}`);
  });
  step('Services: both answer /health');

  for (const line of summaryLines({
    managementUrl,
    replacementUrl,
    databaseUrl,
    redisUrl: redis.url,
    embeddedDatabase: config.databaseUrl === undefined,
    dataDir: config.dataDir,
    developmentLines: development.lines,
    demo,
    demoFile,
  })) {
    write(line);
  }
}

function serviceEntries(rootDir: string): { management: string; cli: string; replacement: string } {
  const entries = {
    management: path.join(rootDir, 'services/management/dist/main.js'),
    cli: path.join(rootDir, 'services/management/dist/cli.js'),
    replacement: path.join(rootDir, 'services/replacement/dist/main.js'),
  };
  const missing = Object.values(entries).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new LauncherError(
      `Not built: ${missing.map((file) => path.relative(rootDir, file)).join(', ')}; run pnpm build (pnpm start does).`,
    );
  }
  return entries;
}

function onUnexpectedExit(name: string, code: number | string): void {
  if (stopping !== undefined) return;
  write(`▸ ${name} exited (${String(code)}); stopping everything.`);
  void stopAll(1);
}

/**
 * Undoes everything start() did, newest first; each step runs even when an earlier one failed. A
 * failed start cleans up quietly and ends with its reason, so that reason is the line the user sees.
 */
function stopAll(exitCode: number, finalLine?: string): Promise<void> {
  stopping ??= (async () => {
    const report = finalLine === undefined ? step : () => undefined;
    report('Stopping');
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup.run();
        report(`Stopped ${cleanup.label}`);
      } catch (error) {
        write(`▸ Could not stop ${cleanup.label}: ${(error as Error).message}`);
      }
    }
    if (finalLine !== undefined) write(finalLine);
    process.exit(exitCode);
  })();
  return stopping;
}

function main(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping !== undefined) {
        write('▸ Second signal: exiting without waiting.');
        process.exit(130);
      }
      void stopAll(0);
    });
  }
  let config: LauncherConfig;
  try {
    config = loadLauncherConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    write(error.message);
    process.exit(1);
  }
  start(config).catch((error: unknown) => {
    if (stopping !== undefined) return;
    // A LauncherError is a sentence for the user; anything else is a bug worth its stack.
    void stopAll(
      1,
      error instanceof LauncherError ? `✖ ${error.message}` : `✖ ${(error as Error).stack ?? String(error)}`,
    );
  });
}

main();
