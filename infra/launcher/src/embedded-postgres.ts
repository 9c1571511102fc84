import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startChild } from './children';
import { LauncherError } from './launcher-error';
import {
  choosePostgresIdentity,
  hostCommand,
  machineIdentityFacts,
  type PostgresIdentity,
} from './postgres-identity';
import type { LineWriter } from './process-output';

/** What embedded-postgres-host.ts reads as one JSON line on its stdin. */
export interface EmbeddedPostgresHostSettings {
  /** The cluster's folder; created with initdb when it holds no cluster yet. */
  dataDir: string;
  port: number;
  /** Password of the "postgres" role, set when the cluster is created. */
  password: string;
  /** Run as root: why the server runs as the "postgres" system user (postgres-identity.ts). */
  postgresUserWhy?: string;
}

/** The host prints this line once the server accepts connections. */
export const READY_LINE = 'embedded Postgres is ready';

export interface EmbeddedPostgres {
  /** A `postgres://` URL any Postgres client (pg, TypeORM, psql) can use. */
  url: string;
  port: number;
  /** Fast shutdown: open transactions roll back, everything committed is on disk. */
  stop(): Promise<void>;
  /** Resolves with the host's exit code once it has ended: after stop(), or when the server died. */
  exited: Promise<number | string>;
}

export interface EmbeddedPostgresOptions extends EmbeddedPostgresHostSettings {
  write: LineWriter;
  /**
   * How node runs the host; by default its built file beside this one. Tests run the TypeScript
   * source through a require hook instead.
   */
  hostArgs?: string[];
  startTimeoutMs?: number;
  /** Who the server runs as; by default chosen from this machine's facts. */
  identity?: PostgresIdentity;
}

const NAME_WIDTH = 'replacement'.length;
/** What PostgreSQL logs when its port is in use ("could not bind IPv4 address …: Address already in use"). */
const PORT_TAKEN = /Address already in use|could not bind/i;

/**
 * Real PostgreSQL from the embedded-postgres package (its per-platform packages carry the binaries),
 * run by a child process of its own (embedded-postgres-host.ts), on 127.0.0.1 at a fixed port.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  mkdirSync(path.dirname(options.dataDir), { recursive: true });
  let ready: () => void = () => undefined;
  const readyLine = new Promise<void>((resolve) => (ready = resolve));
  const identity = options.identity ?? choosePostgresIdentity(machineIdentityFacts(options.dataDir));
  const settings: EmbeddedPostgresHostSettings = {
    dataDir: options.dataDir,
    port: options.port,
    password: options.password,
    ...(identity.kind === 'postgres-user' ? { postgresUserWhy: identity.why } : {}),
  };
  const host = hostCommand(identity, options.hostArgs ?? [path.join(__dirname, 'embedded-postgres-host.js')]);
  // The host's last words, for the launcher's own message: only a port that is taken earns the port hint.
  const hostLines: string[] = [];
  const child = startChild(
    {
      name: 'postgres',
      ...host,
      env: process.env,
      cwd: path.dirname(options.dataDir),
      nameWidth: NAME_WIDTH,
      input: `${JSON.stringify(settings)}\n`,
    },
    (line) => {
      if (line.endsWith(`| ${READY_LINE}`)) ready();
      else {
        if (hostLines.push(line) > 50) hostLines.shift();
        options.write(line);
      }
    },
  );
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      readyLine,
      child.exited.then((code) => {
        throw new LauncherError(
          `Embedded Postgres did not start (exit ${String(code)}); see the postgres lines above.` +
            (hostLines.some((line) => PORT_TAKEN.test(line))
              ? ` Port ${options.port} is taken: set EMBEDDED_POSTGRES_PORT to a free one.`
              : ''),
        );
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new LauncherError(`Embedded Postgres was not ready within ${timeoutMs} ms.`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    await child.stop(10_000);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/postgres`,
    port: options.port,
    // A fast shutdown ends with a checkpoint; a large one may take a while on a busy machine.
    stop: () => child.stop(60_000),
    exited: child.exited,
  };
}
