import type { DataSource } from 'typeorm';

/**
 * Resolves once a session of the test's database waits for a lock another one holds: the sign that
 * a statement under test is blocked, where a sleep would only hope it got that far. Each test file
 * has a database of its own, so no other file's sessions count.
 */
export async function untilBlockedOnLock(dataSource: DataSource, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ waiting }]: Array<{ waiting: number }> = await dataSource.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (waiting > 0) return;
    if (Date.now() > deadline) throw new Error(`no session waited for a lock within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
