import { Client } from 'pg';

/** The URL of `database` on the server `serverUrl` names (same host, user and options). */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A database a bench run creates for itself on the server `serverUrl` names. */
export interface BenchDatabase {
  name: string;
  url: string;
  /** Removes it, ending whatever connections are still open on it. */
  drop(): Promise<void>;
}

export async function createBenchDatabase(serverUrl: string, name: string): Promise<BenchDatabase> {
  await admin(serverUrl, `CREATE DATABASE "${name}"`);
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: async () => {
      await admin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * One statement on a connection of its own, for what no pool may run (`CREATE DATABASE`,
 * `DROP DATABASE … WITH (FORCE)`) or what a bench reads about the server; answers the rows.
 */
export async function admin(serverUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
