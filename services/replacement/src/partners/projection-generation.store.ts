import { projectionKeys } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { ProjectionsRebuildingError } from '../resilience/projections-rebuilding-error';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';

/**
 * Whether Redis holds a complete generation of management's projections: its generation marker
 * exists (docs/redis-keys.md, Projection generation). Asked only after a lookup missed, so the
 * hot path of known partners and numbers never pays for it.
 */
export interface ProjectionGenerationStore {
  isComplete(): Promise<boolean>;
}

export class RedisProjectionGenerationStore implements ProjectionGenerationStore {
  private readonly key: string;

  constructor(
    private readonly redis: RedisConnection,
    keyPrefix: string,
  ) {
    this.key = projectionKeys(keyPrefix).generation;
  }

  async isComplete(): Promise<boolean> {
    try {
      return (await this.redis.exists(this.key)) === 1;
    } catch (error) {
      throw StoreUnavailableError.from(error);
    }
  }
}

/**
 * After a miss: the miss is real only when the projections are complete; else Redis is being rebuilt.
 * The marker is read after the lookup that missed, so a rebuild whose last partner and marker are
 * both written between the two reads would make that one request's miss look real; that needs the
 * rebuild's last several round trips to fit between two consecutive commands of this request.
 */
export async function assertProjectionsComplete(generations: ProjectionGenerationStore): Promise<void> {
  if (!(await generations.isComplete())) throw new ProjectionsRebuildingError();
}
