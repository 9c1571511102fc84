import type { Logger } from '@trackline/platform';
import { createDataSource } from './data-source';
import { withMigrationLock } from './migration-lock';

/**
 * Applies pending migrations and returns their names. Several processes may start at once (replicas,
 * `pnpm start` next to a CLI call): the migration lock lets one migrate while the others wait, after
 * which they find nothing pending.
 */
export async function runMigrations(databaseUrl: string, logger?: Logger): Promise<string[]> {
  // The migrations are SQL of their own: they need no entity, so db/ knows no feature.
  const dataSource = createDataSource(databaseUrl, []);
  await dataSource.initialize();
  try {
    return await withMigrationLock(dataSource, async () => {
      const applied = await dataSource.runMigrations({ transaction: 'all' });
      for (const migration of applied) logger?.info({ migration: migration.name }, 'migration applied');
      if (applied.length === 0) logger?.info('database schema is up to date');
      return applied.map((migration) => migration.name);
    });
  } finally {
    await dataSource.destroy();
  }
}
