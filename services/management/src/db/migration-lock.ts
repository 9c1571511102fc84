import type { DataSource } from 'typeorm';

// Any constant works as long as every process uses the same one; hashtext keeps it readable.
const MIGRATION_LOCK_SQL = `SELECT pg_advisory_lock(hashtext('trackline.management.migrations'))`;
const MIGRATION_UNLOCK_SQL = `SELECT pg_advisory_unlock(hashtext('trackline.management.migrations'))`;

/**
 * Runs `work` holding the migration lock, so schema changes made outside migrations (the monthly
 * partitions of "cdrs") never run beside a migration or each other. A session-level advisory lock:
 * held on one connection of the pool for as long as `work` runs.
 */
export async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query(MIGRATION_LOCK_SQL);
    try {
      return await work();
    } finally {
      await lockHolder.query(MIGRATION_UNLOCK_SQL);
    }
  } finally {
    await lockHolder.release();
  }
}
