import { encodeNumberIndexEntry, type PartnerProjection, type SourceRoute } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import type { ProjectionRedisStore } from './projection-redis.store';
import type { PartnerProjectionReader, ProjectionStore } from './projection.store';
import { ProjectionsService } from './projections.service';

const NOW = new Date('2026-04-01T12:00:00Z');

function projection(advId: string, pool: string[], sources: SourceRoute[] = []): PartnerProjection {
  return {
    config: {
      advId,
      signingSecret: `secret-of-${advId}`,
      country: 'NO',
      timeZone: 'Europe/Oslo',
      sessionTtlSeconds: 1800,
      holdBackSeconds: 600,
      onExhausted: 'recycle',
      fallbackNumber: null,
    },
    poolNumbers: pool,
    sources,
  };
}

function route(sourceId: string, destnr: string, phonenr: string): SourceRoute {
  return {
    sourceId,
    customerId: '1',
    destnr,
    phonenr,
    altNumbers: [],
    vmDivertAll: false,
    vmDivertBusy: false,
    vmDivertNoanswer: false,
    vmGreetingId: null,
    closed: false,
  };
}

/** The database side: projections by partner id, a log of lock use. */
class MapProjectionStore implements ProjectionStore {
  readonly projections = new Map<string, PartnerProjection>();
  readonly locks: string[] = [];
  async partnerIds(): Promise<string[]> {
    return [...this.projections.keys()];
  }
  async withPartnerLock<T>(
    partnerId: string,
    work: (reader: PartnerProjectionReader) => Promise<T>,
  ): Promise<T> {
    this.locks.push(partnerId);
    return work({ load: async () => this.projections.get(partnerId) ?? null });
  }
}

/** Redis as the writer leaves it: projections by advId and the global index. */
class MapRedisStore implements ProjectionRedisStore {
  readonly written = new Map<string, PartnerProjection>();
  readonly index = new Map<string, string>();
  failWrites = false;
  async write(projection: PartnerProjection): Promise<void> {
    if (this.failWrites) throw new Error('connection refused');
    this.written.set(projection.config.advId, projection);
    const advId = projection.config.advId;
    for (const number of projection.poolNumbers)
      this.index.set(number, encodeNumberIndexEntry({ advId, kind: 'pool' }));
    for (const source of projection.sources)
      this.index.set(source.destnr, encodeNumberIndexEntry({ advId, kind: 'static' }));
  }
  async indexEntries(): Promise<Map<string, string>> {
    return new Map(this.index);
  }
  async deleteIndexEntriesIf(found: ReadonlyMap<string, string>): Promise<number> {
    let removed = 0;
    for (const [number, value] of found) {
      if (this.index.get(number) === value) {
        this.index.delete(number);
        removed += 1;
      }
    }
    return removed;
  }
}

describe('ProjectionsService', () => {
  let store: MapProjectionStore;
  let redis: MapRedisStore;
  let errors: unknown[];
  let service: ProjectionsService;

  beforeEach(() => {
    store = new MapProjectionStore();
    redis = new MapRedisStore();
    errors = [];
    const log = createLogger({ service: 'test', level: 'silent' });
    log.error = ((details: unknown) => void errors.push(details)) as typeof log.error;
    service = new ProjectionsService(store, redis, log, () => NOW);
  });

  it('writes the changed partner under its lock', async () => {
    store.projections.set('1', projection('acme', ['+4791000001']));
    await service.partnerChanged('1');
    expect(store.locks).toEqual(['1']);
    expect(redis.written.get('acme')?.poolNumbers).toEqual(['+4791000001']);
  });

  it('logs instead of rejecting when Redis fails after the commit', async () => {
    store.projections.set('1', projection('acme', []));
    redis.failWrites = true;
    await expect(service.partnerChanged('1')).resolves.toBeUndefined();
    expect(errors).toEqual([expect.objectContaining({ partnerId: '1', err: expect.any(Error) })]);
  });

  it('rebuilds every partner and counts what it wrote', async () => {
    store.projections.set(
      '1',
      projection('acme', ['+4791000001', '+4791000002'], [route('5', '+4790000005', '+4722334455')]),
    );
    store.projections.set(
      '2',
      projection(
        'beta',
        [],
        [route('6', '+4790000006', '+4722000000'), route('7', '+4790000007', '+4722000000')],
      ),
    );
    expect(await service.rebuild()).toEqual({
      partners: 2,
      poolNumbers: 2,
      staticRoutes: 3,
      answeringNumbers: 2,
      staleIndexEntries: 0,
    });
    expect([...redis.written.keys()]).toEqual(['acme', 'beta']);
  });

  it('removes index entries no partner owns, keeping one a partner gained meanwhile', async () => {
    store.projections.set('1', projection('acme', ['+4791000001']));
    redis.index.set('+4791000099', 'pool:acme'); // left over: acme no longer has it
    redis.index.set('+4791000077', 'pool:ghost'); // a partner the database does not know
    redis.index.set('+4791000066', 'junk'); // undecodable
    redis.index.set('+4791000055', 'static:acme'); // acme gets it during the rebuild (below)
    const load = store.withPartnerLock.bind(store);
    let calls = 0;
    store.withPartnerLock = (partnerId, work) => {
      calls += 1;
      // The second time acme is read (the stale-entry check), the number has just been added.
      if (calls === 2) {
        store.projections.set(
          '1',
          projection('acme', ['+4791000001'], [route('8', '+4791000055', '+4722334455')]),
        );
      }
      return load(partnerId, work);
    };
    const counts = await service.rebuild();
    expect(counts.staleIndexEntries).toBe(3);
    expect(Object.fromEntries(redis.index)).toEqual({
      '+4791000001': 'pool:acme',
      '+4791000055': 'static:acme',
    });
  });
});
