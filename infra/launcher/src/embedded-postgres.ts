import { mkdirSync } from 'node:fs';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// The contrib entry points publish ESM typings only, so TypeScript refuses a static CommonJS import;
// their CommonJS build exists and is loaded directly.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { uuid_ossp } = require('@electric-sql/pglite/contrib/uuid_ossp') as { uuid_ossp: Extension };

export interface EmbeddedPostgres {
  /** A `postgres://` URL any Postgres client (pg, TypeORM, psql) can use. */
  url: string;
  port: number;
  /** Closes client connections, stops listening and flushes PGlite's data to disk. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder holding the database files; created on first use, reused afterwards. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /**
   * Client connections served at once. PGlite is one backend, so the socket server multiplexes:
   * statements from different connections take turns, and an open transaction holds the turn until
   * it ends. A pool of 10 per service plus the operator CLI stays well below the default.
   */
  maxConnections?: number;
}

const DEFAULT_MAX_CONNECTIONS = 100;

/**
 * A real Postgres (PGlite, Postgres compiled to WebAssembly) served over the wire protocol, so the
 * services and the operator CLI connect with their normal drivers and no database server is needed.
 * It is one session underneath: session-level advisory locks are shared by every connection, so they
 * do not exclude one connection from another here (they never block either).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  mkdirSync(options.dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  // uuid-ossp is the one extension TypeORM may ask for (uuid primary keys); the rest is built in.
  const db = await PGlite.create({ dataDir: options.dataDir, extensions: { uuid_ossp } });
  const server = new PGLiteSocketServer({
    db,
    host,
    port: options.port,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
  });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const port = Number(server.getServerConn().split(':').pop());
  let stopping: Promise<void> | undefined;
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    stop: () => {
      stopping ??= (async () => {
        await server.stop();
        await db.close();
      })();
      return stopping;
    },
  };
}
