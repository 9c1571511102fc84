import type { Logger } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';

// Any constant works as long as every process uses the same one; hashtext keeps it readable.
const MIGRATION_LOCK_SQL = `SELECT pg_advisory_lock(hashtext('trackline.management.migrations'))`;
const MIGRATION_UNLOCK_SQL = `SELECT pg_advisory_unlock(hashtext('trackline.management.migrations'))`;

/**
 * Runs `work` holding the migration lock, so schema changes made outside migrations (the monthly
 * partitions of "cdrs") never run beside a migration or each other.
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

/**
 * Applies pending migrations and returns their names. Several processes may start at once (replicas,
 * `pnpm start` next to a CLI call): a session-level advisory lock lets one migrate while the others
 * wait, after which they find nothing pending.
 */
export async function runMigrations(databaseUrl: string, logger?: Logger): Promise<string[]> {
  const dataSource = createDataSource(databaseUrl);
  await dataSource.initialize();
  try {
    const lockHolder = dataSource.createQueryRunner();
    await lockHolder.connect();
    try {
      await lockHolder.query(MIGRATION_LOCK_SQL);
      try {
        const applied = await dataSource.runMigrations({ transaction: 'all' });
        for (const migration of applied) logger?.info({ migration: migration.name }, 'migration applied');
        if (applied.length === 0) logger?.info('database schema is up to date');
        return applied.map((migration) => migration.name);
      } finally {
        await lockHolder.query(MIGRATION_UNLOCK_SQL);
      }
    } finally {
      await lockHolder.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
