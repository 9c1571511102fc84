import {
  decodeProjectionGeneration,
  encodeProjectionGeneration,
  projectionKeys,
  type ProjectionGeneration,
  type ProjectionKeys,
} from '@trackline/contracts';
import { defineLuaCommand, type RedisConnection } from '@trackline/platform';

/** The generation marker and the rebuild lock in Redis (docs/redis-keys.md, Projection generation). */
export interface ProjectionGenerationStore {
  /** The marker Redis holds; null when missing or unreadable. */
  read(): Promise<ProjectionGeneration | null>;
  /**
   * Starts a run: takes the lock for `lockMs` and marks the run. False when another replica holds
   * the lock and `force` is off.
   */
  claim(token: string, options: { lockMs: number; force: boolean }): Promise<boolean>;
  /**
   * Ends a run: writes `generation` (unless null: the rebuild failed) only if the run's mark
   * survived, and releases the lock if the run still holds it. True when the marker was written.
   */
  finish(token: string, generation: ProjectionGeneration | null): Promise<boolean>;
}

// The run's mark only has to outlive the longest rebuild; the expiry just clears marks of
// replicas that died mid-run.
const RUN_MARK_MS = 24 * 60 * 60 * 1000;

interface GenerationScripts {
  claimProjectionRebuild(
    lock: string,
    run: string,
    token: string,
    lockMs: string,
    runMs: string,
    force: string,
  ): Promise<number>;
  finishProjectionRebuild(
    run: string,
    marker: string,
    lock: string,
    value: string,
    token: string,
  ): Promise<number>;
}

export class IoredisProjectionGenerationStore implements ProjectionGenerationStore {
  private readonly redis: RedisConnection & GenerationScripts;
  private readonly keys: ProjectionKeys;

  constructor(redis: RedisConnection, keyPrefix: string) {
    defineLuaCommand(redis, __dirname, {
      name: 'claimProjectionRebuild',
      file: 'claim-projection-rebuild',
      numberOfKeys: 2,
    });
    this.redis = defineLuaCommand<GenerationScripts>(redis, __dirname, {
      name: 'finishProjectionRebuild',
      file: 'finish-projection-rebuild',
      numberOfKeys: 3,
    });
    this.keys = projectionKeys(keyPrefix);
  }

  async read(): Promise<ProjectionGeneration | null> {
    return decodeProjectionGeneration(await this.redis.get(this.keys.generation));
  }

  async claim(token: string, options: { lockMs: number; force: boolean }): Promise<boolean> {
    const claimed = await this.redis.claimProjectionRebuild(
      this.keys.rebuildLock,
      this.keys.rebuildRun(token),
      token,
      String(options.lockMs),
      String(RUN_MARK_MS),
      options.force ? '1' : '0',
    );
    return claimed === 1;
  }

  async finish(token: string, generation: ProjectionGeneration | null): Promise<boolean> {
    const written = await this.redis.finishProjectionRebuild(
      this.keys.rebuildRun(token),
      this.keys.generation,
      this.keys.rebuildLock,
      generation === null ? '' : encodeProjectionGeneration(generation),
      token,
    );
    return written === 1;
  }
}
