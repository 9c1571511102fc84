import type { Logger, RedisConnection } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { ManagementListeners } from './management-services';
import { storesOn } from './stores-on-manager';
import { IoredisProjectionGenerationStore } from '../projections/projection-generation.store';
import { ProjectionHealer, type ProjectionHealerSettings } from '../projections/projection-healer';
import { IoredisProjectionStore } from '../projections/projection-redis.store';
import { TypeormProjectionStore } from '../projections/projection.store';
import { ProjectionsService } from '../projections/projections.service';

export interface ProjectionsDependencies {
  dataSource: DataSource;
  redis: RedisConnection;
  /** REDIS_KEY_PREFIX; the replacement service must use the same. */
  keyPrefix: string;
  logger: Logger;
  clock?: () => Date;
}

/**
 * The projections' part of the composition root: the publisher every service calls after its
 * commit (also the numbers' and sources' change listener), and `rebuild()` for start and the CLI.
 */
export function createProjections(dependencies: ProjectionsDependencies): ProjectionsService {
  return new ProjectionsService(
    new TypeormProjectionStore(dependencies.dataSource, storesOn),
    new IoredisProjectionStore(dependencies.redis, dependencies.keyPrefix),
    dependencies.logger.child({ component: 'projections' }),
    dependencies.clock ?? (() => new Date()),
  );
}

/** The one full-rebuild path (start, `projections:rebuild`, and healing an emptied Redis). */
export function createProjectionHealer(
  projections: ProjectionsService,
  dependencies: Pick<ProjectionsDependencies, 'redis' | 'keyPrefix' | 'logger' | 'clock'>,
  settings: ProjectionHealerSettings,
): ProjectionHealer {
  return new ProjectionHealer(
    projections,
    new IoredisProjectionGenerationStore(dependencies.redis, dependencies.keyPrefix),
    dependencies.logger.child({ component: 'projections' }),
    settings,
    dependencies.clock,
  );
}

/** The projections as every change listener the services take. */
export function projectionListeners(projections: ProjectionsService): ManagementListeners {
  return { sourceChanges: [projections], numberChanges: [projections], configChanges: [projections] };
}
