import { randomBytes } from 'node:crypto';
import { needsRebuild, PROJECTION_VERSION, type ProjectionGeneration } from '@trackline/contracts';
import type { Logger } from '@trackline/platform';
import type { ProjectionGenerationStore } from './projection-generation.store';
import type { RebuildCounts } from './projections.service';

/** Why a full rebuild ran, for the log and the operator. */
export type RebuildReason = 'start' | 'command' | 'marker-missing' | 'marker-older';

export interface RebuildOutcome {
  counts: RebuildCounts;
  generation: ProjectionGeneration;
  /** False when Redis lost data during the rebuild: no marker was written, the next check rebuilds again. */
  marked: boolean;
}

export interface ProjectionHealerSettings {
  /** PROJECTION_REBUILD_LOCK_MS: how long one replica's rebuild keeps the others from starting one. */
  rebuildLockMs: number;
}

/**
 * The one path of a full projection rebuild (docs/redis-keys.md, Projection generation): at start,
 * on `projections:rebuild`, and by itself whenever the generation marker is missing — Redis came
 * back empty, or lost its data in place. Every rebuild writes the marker last, and only when Redis
 * kept the run's mark throughout, so a marker always stands for a complete set of projections.
 * Rebuilds are idempotent; the lock only spares the database the same work on every replica.
 */
export class ProjectionHealer {
  private running: Promise<unknown> = Promise.resolve();
  private checking = false;

  constructor(
    private readonly projections: { rebuild(): Promise<RebuildCounts> },
    private readonly generations: ProjectionGenerationStore,
    private readonly log: Logger,
    private readonly settings: ProjectionHealerSettings,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Rebuilds every projection now, whoever else is rebuilding. Rejects when Redis or the database fails. */
  rebuild(reason: Extract<RebuildReason, 'start' | 'command'>): Promise<RebuildOutcome> {
    return this.serialised(() => this.run(reason, true)) as Promise<RebuildOutcome>;
  }

  /**
   * Rebuilds when the marker asks for it and no other replica is rebuilding. Never rejects: it runs
   * on timers and connection events, and a failure is logged and retried at the next check.
   */
  async healIfNeeded(): Promise<RebuildOutcome | null> {
    if (this.checking) return null;
    this.checking = true;
    try {
      const found = await this.generations.read();
      if (!needsRebuild(found)) return null;
      const reason: RebuildReason = found === null ? 'marker-missing' : 'marker-older';
      this.log.warn(
        { reason, found },
        found === null
          ? 'Redis does not hold a complete generation of the projections (it restarted empty or lost its data): rebuilding them'
          : 'Redis holds projections of an older version: rebuilding them',
      );
      return await this.serialised(() => this.run(reason, false));
    } catch (error) {
      this.log.error({ err: error }, 'projection check or rebuild failed; retrying at the next check');
      return null;
    } finally {
      this.checking = false;
    }
  }

  // One rebuild per process at a time: a check that finds the marker missing while the start's
  // rebuild runs waits for it instead of doing the same work beside it.
  private serialised(work: () => Promise<RebuildOutcome | null>): Promise<RebuildOutcome | null> {
    const next = this.running.then(work, work);
    this.running = next.catch(() => undefined);
    return next;
  }

  private async run(reason: RebuildReason, force: boolean): Promise<RebuildOutcome | null> {
    // A check queued behind another rebuild may find the marker written by then.
    if (!force && !needsRebuild(await this.generations.read())) return null;
    const token = randomBytes(8).toString('hex');
    if (!(await this.generations.claim(token, { lockMs: this.settings.rebuildLockMs, force }))) {
      this.log.info({ reason }, 'another management replica is rebuilding the projections');
      return null;
    }
    const startedAt = performance.now();
    let counts: RebuildCounts;
    try {
      counts = await this.projections.rebuild();
    } catch (error) {
      await this.generations.finish(token, null).catch(() => undefined);
      throw error;
    }
    const generation: ProjectionGeneration = {
      version: PROJECTION_VERSION,
      id: token,
      builtAt: this.clock().toISOString(),
    };
    const marked = await this.generations.finish(token, generation);
    const ms = Math.round(performance.now() - startedAt);
    if (marked) this.log.info({ reason, generation: token, ms, ...counts }, 'Redis projections rebuilt');
    else
      this.log.warn(
        { reason, generation: token, ms, ...counts },
        'Redis lost data while the projections were rebuilt: no generation marker written; the next check rebuilds again',
      );
    return { counts, generation, marked };
  }
}
