import { Client } from 'pg';

const CONNECT_TIMEOUT_MS = 5_000;

// Runs `work` on a short-lived connection to the server's maintenance database. CREATE/DROP DATABASE
// cannot run inside a transaction or on a pooled connection shared with tests, so each call gets its own.
export async function withAdminClient<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// The URL of another database on the same server, with the same credentials and options.
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

// FORCE terminates the sessions a test left open (a pool not closed after a failure) instead of
// failing the drop; IF EXISTS makes a second drop() harmless.
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  await withAdminClient(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`),
  );
}

// Error messages name the server without its password.
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '<unparseable URL>';
  }
}
