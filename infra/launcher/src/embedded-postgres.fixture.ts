import { startEmbeddedPostgres } from './embedded-postgres';

// Run by embedded-postgres.integration.test.ts in a child process (see test/swc-register.js):
// starts the embedded Postgres on the folder given as argument, prints its URL as one JSON line,
// and stops cleanly on SIGTERM, like the launcher does.
async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: embedded-postgres.fixture.ts <data dir>');
  const postgres = await startEmbeddedPostgres({ dataDir, port: 0 });
  process.once('SIGTERM', () => {
    void postgres.stop().then(() => process.exit(0));
  });
  process.stdout.write(`${JSON.stringify({ url: postgres.url })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
