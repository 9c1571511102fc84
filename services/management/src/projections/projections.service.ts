import {
  answeringSources,
  decodeNumberIndexEntry,
  encodeNumberIndexEntry,
  type PartnerProjection,
} from '@trackline/contracts';
import type { Logger } from '@trackline/platform';
import type { PartnerChangeListener } from '../partners/partner-change-listener';
import type { ProjectionRedisStore } from './projection-redis.store';
import type { ProjectionStore } from './projection.store';

/** What a rebuild wrote, for the operator. */
export interface RebuildCounts {
  partners: number;
  poolNumbers: number;
  staticRoutes: number;
  answeringNumbers: number;
  /** Index entries of numbers no partner has any more (or of unknown partners) that were removed. */
  staleIndexEntries: number;
}

/** Index entries whose partner is not in the database. */
const NO_PARTNER = '';

/**
 * Keeps the Redis projections (docs/redis-keys.md, Writers) equal to the committed configuration: one partner
 * after each change, all of them at start and on `projections:rebuild`.
 */
export class ProjectionsService implements PartnerChangeListener {
  constructor(
    private readonly store: ProjectionStore,
    private readonly redis: ProjectionRedisStore,
    private readonly log: Logger,
    /** Decides which closed sources are still held back. */
    private readonly clock: () => Date,
  ) {}

  async partnerChanged(partnerId: string): Promise<void> {
    try {
      await this.store.withPartnerLock(partnerId, async (reader) => {
        const projection = await reader.load(partnerId, this.clock());
        if (projection !== null) await this.redis.write(projection);
      });
    } catch (error) {
      // The change is committed; failing the request now would only make the client retry it.
      this.log.error(
        { err: error, partnerId },
        'Redis projection not written after a committed change; projections:rebuild (also run at every start) repairs it',
      );
    }
  }

  /** As the numbers feature's NumberInventoryListener: a partner's inventory changed. */
  numbersChanged(partnerId: string): Promise<void> {
    return this.partnerChanged(partnerId);
  }

  /** As the sources feature's SourceChangeListener: the whole partner is rewritten, not one route. */
  sourceChanged(partnerId: string, _sourceId: string): Promise<void> {
    return this.partnerChanged(partnerId);
  }

  /**
   * Rewrites every partner's projection from the database and removes index entries nobody owns.
   * Idempotent; pool scores and bindings, which replacement owns, survive (the contracts' writer
   * only adds and removes pool members). Rejects when Redis or the database fails.
   */
  async rebuild(): Promise<RebuildCounts> {
    const counts: RebuildCounts = {
      partners: 0,
      poolNumbers: 0,
      staticRoutes: 0,
      answeringNumbers: 0,
      staleIndexEntries: 0,
    };
    const expected = new Map<string, string>();
    const partnerOfAdvId = new Map<string, string>();
    for (const partnerId of await this.store.partnerIds()) {
      const projection = await this.store.withPartnerLock(partnerId, async (reader) => {
        const loaded = await reader.load(partnerId, this.clock());
        if (loaded !== null) await this.redis.write(loaded);
        return loaded;
      });
      if (projection === null) continue;
      counts.partners += 1;
      counts.poolNumbers += projection.poolNumbers.length;
      counts.staticRoutes += projection.sources.length;
      counts.answeringNumbers += answeringSources(projection.sources).length;
      partnerOfAdvId.set(projection.config.advId, partnerId);
      for (const [number, entry] of indexOf(projection)) expected.set(number, entry);
    }
    counts.staleIndexEntries = await this.removeStaleIndexEntries(expected, partnerOfAdvId);
    return counts;
  }

  /**
   * The writer drops index entries of numbers that left a partner by comparing with what Redis held
   * before; an entry survives that when Redis lost the partner's keys or a write stopped halfway.
   * Such entries are found here, and each is removed under its partner's lock after checking the
   * partner still does not have the number (it may have been added since the pass above).
   */
  private async removeStaleIndexEntries(
    expected: ReadonlyMap<string, string>,
    partnerOfAdvId: ReadonlyMap<string, string>,
  ): Promise<number> {
    const suspects = new Map<string, Map<string, string>>();
    for (const [number, entry] of await this.redis.indexEntries()) {
      if (expected.has(number)) continue;
      const partnerId = partnerOfAdvId.get(advIdOf(entry) ?? '') ?? NO_PARTNER;
      const group = suspects.get(partnerId) ?? new Map<string, string>();
      group.set(number, entry);
      suspects.set(partnerId, group);
    }
    let removed = 0;
    for (const [partnerId, group] of suspects) {
      if (partnerId === NO_PARTNER) {
        removed += await this.redis.deleteIndexEntriesIf(group);
        continue;
      }
      removed += await this.store.withPartnerLock(partnerId, async (reader) => {
        const projection = await reader.load(partnerId, this.clock());
        const current = projection === null ? new Map<string, string>() : indexOf(projection);
        for (const number of current.keys()) group.delete(number);
        return this.redis.deleteIndexEntriesIf(group);
      });
    }
    return removed;
  }
}

/** The index entries a projection puts in Redis: number → `<kind>:<advId>`. */
function indexOf(projection: PartnerProjection): Map<string, string> {
  const advId = projection.config.advId;
  const index = new Map<string, string>();
  for (const number of projection.poolNumbers)
    index.set(number, encodeNumberIndexEntry({ advId, kind: 'pool' }));
  for (const destnr of [
    ...projection.sources.map((source) => source.destnr),
    ...(projection.freeStaticNumbers ?? []),
  ])
    index.set(destnr, encodeNumberIndexEntry({ advId, kind: 'static' }));
  return index;
}

function advIdOf(entry: string): string | undefined {
  try {
    return decodeNumberIndexEntry(entry).advId;
  } catch {
    return undefined;
  }
}
