import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { runMigrations } from '../src/db/migrate';
import { TypeormWebhookDeliveriesStore } from '../src/webhooks/webhook-deliveries.store';
import { createBenchDatabase } from './bench-database';

const BACKLOGS = [0, 100, 1_000, 5_000];
const HISTORY = 50_000;
const LANES = 5;
const RUNS = 40;

/**
 * The webhook workers' fair claim (db/leased-queue.ts) against a growing backlog (docs/benchmarks.md,
 * Claims): a database of its own with every migration, five
 * partners with a webhook each, 50,000 delivered rows and three in flight; then, for each backlog of
 * due rows, the claim's generic plan (as a prepared statement runs it after its first executions)
 * executed 40 times under EXPLAIN (ANALYZE, BUFFERS), each rolled back. Prints the mean execution time
 * and buffers per claim; a claim whose cost grows with the backlog shows here.
 */
async function main(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await createBenchDatabase(serverUrl, `tl_bench_claim_${randomBytes(4).toString('hex')}`);
  const databaseUrl = database.url;
  const client = new Client({ connectionString: databaseUrl });
  try {
    await runMigrations(databaseUrl);
    await client.connect();
    await seed(client);
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE claim(timestamptz, int, text, timestamptz, int, int) AS ${claimSql()}`);
    const rows: Array<Record<string, string | number>> = [];
    for (const backlog of BACKLOGS) {
      await setBacklog(client, backlog);
      rows.push({ backlog, ...(await measure(client)) });
    }
    console.table(rows);
  } finally {
    await client.end().catch(() => undefined);
    await database.drop();
  }
}

/** The claim as the webhook store sends it, captured from the store itself. */
function claimSql(): string {
  let sql = '';
  const manager = {
    query: (text: string) => {
      sql = text;
      return Promise.resolve([]);
    },
  } as unknown as EntityManager;
  const now = new Date();
  void new TypeormWebhookDeliveriesStore(manager).claim('bench', now, now, 1, 1, 1);
  if (sql === '') throw new Error('the webhook store sent no claim');
  return sql;
}

async function seed(client: Client): Promise<void> {
  for (let i = 1; i <= LANES; i++) {
    const partner = await client.query<{ id: string }>(
      `INSERT INTO partners (name, digest_username, ha1_md5, ha1_sha256, signing_secret)
       VALUES ($1, $1, 'x', 'x', 'x') RETURNING id`,
      [`claim-bench-${i}`],
    );
    await client.query(
      `INSERT INTO webhooks (partner_id, url, events, secret) VALUES ($1, $2, $3, 'secret')`,
      [partner.rows[0]!.id, 'https://receiver.example/hook', ['call.completed']],
    );
  }
  await client.query(
    `INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, status, sent_at, next_attempt_at)
     SELECT 'sent-' || g, w.id, w.partner_id, 'call.completed', 'sent', now(), now() - interval '1 hour'
       FROM generate_series(1, $1) g JOIN webhooks w ON w.id = (SELECT min(id) FROM webhooks) + g % $2`,
    [HISTORY, LANES],
  );
  await client.query(
    `INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, status, locked_by, locked_until)
     SELECT 'sending-' || g, w.id, w.partner_id, 'call.completed', 'sending', 'other', now() + interval '30 seconds'
       FROM generate_series(1, 3) g JOIN webhooks w ON w.id = (SELECT min(id) FROM webhooks)`,
  );
}

/** `backlog` due rows on two of the lanes, replacing the last backlog; then statistics as autovacuum leaves them. */
async function setBacklog(client: Client, backlog: number): Promise<void> {
  await client.query(`DELETE FROM webhook_deliveries WHERE message_id LIKE 'due-%'`);
  await client.query(
    `INSERT INTO webhook_deliveries (message_id, webhook_id, partner_id, event_type, next_attempt_at)
     SELECT 'due-' || g, w.id, w.partner_id, 'call.completed', now() - interval '1 minute' + g * interval '1 ms'
       FROM generate_series(1, $1) g JOIN webhooks w ON w.id = (SELECT min(id) FROM webhooks) + g % 2`,
    [backlog],
  );
  await client.query('VACUUM (ANALYZE) webhook_deliveries');
}

async function measure(client: Client): Promise<{ ms: string; buffers: number; claimed: number }> {
  let ms = 0;
  let buffers = 0;
  let claimed = 0;
  for (let run = 0; run < RUNS; run++) {
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + 30_000);
    await client.query('BEGIN');
    // EXPLAIN takes no bind parameters; the two times are ISO texts this function made.
    const result = await client.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number; Plan: Plan }> }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE claim('${now.toISOString()}', 4, 'bench', '${leaseUntil.toISOString()}', 4, 16)`,
    );
    await client.query('ROLLBACK');
    const plan = result.rows[0]!['QUERY PLAN'][0]!;
    ms += plan['Execution Time'];
    buffers += plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'];
    claimed += updatedRows(plan.Plan);
  }
  return { ms: (ms / RUNS).toFixed(3), buffers: Math.round(buffers / RUNS), claimed: claimed / RUNS };
}

interface Plan {
  'Node Type': string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Actual Rows': number;
  Plans?: Plan[];
}

/** The rows the claim's UPDATE took: the statement answers one row more when it took none. */
function updatedRows(plan: Plan): number {
  if (plan['Node Type'] === 'ModifyTable') return plan['Actual Rows'];
  return (plan.Plans ?? []).reduce((sum, child) => sum + updatedRows(child), 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`claim bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
