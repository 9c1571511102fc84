import { decodeNumberIndexEntry } from './number-index.codec';
import { decodePartnerConfig, type PartnerConfig } from './partner-config.codec';
import {
  answeringSources,
  writePartnerProjection,
  type ProjectionRedis,
  type ProjectionTransaction,
} from './projection-writer';
import { numberIndexKey, partnerKeys } from './redis-keys';
import { decodeSourceRoute, type SourceRoute } from './source-route.codec';

// An in-memory stand-in for the few commands the writer uses; a real Redis is exercised by the
// replacement service's integration tests, which write their projections through this writer.
class MemoryRedis implements ProjectionRedis {
  readonly hashes = new Map<string, Map<string, string>>();
  readonly zsets = new Map<string, Map<string, number>>();

  async zrange(key: string): Promise<string[]> {
    return [...(this.zsets.get(key)?.entries() ?? [])].sort((a, b) => a[1] - b[1]).map(([m]) => m);
  }
  async hkeys(key: string): Promise<string[]> {
    return [...(this.hashes.get(key)?.keys() ?? [])];
  }
  async hmget(key: string, ...fields: string[]): Promise<Array<string | null>> {
    return fields.map((f) => this.hashes.get(key)?.get(f) ?? null);
  }
  async hset(key: string, values: Record<string, string>): Promise<number> {
    const hash = this.hashes.get(key) ?? new Map<string, string>();
    for (const [f, v] of Object.entries(values)) hash.set(f, v);
    this.hashes.set(key, hash);
    return 0;
  }
  async hdel(key: string, ...fields: string[]): Promise<number> {
    fields.forEach((f) => this.hashes.get(key)?.delete(f));
    return fields.length;
  }
  multi(): ProjectionTransaction {
    const ops: Array<() => void> = [];
    const tx: ProjectionTransaction = {
      del: (key) => (ops.push(() => (this.hashes.delete(key), this.zsets.delete(key))), tx),
      hset: (key, values) => (ops.push(() => void this.hset(key, values)), tx),
      zadd: (key, ...args) => {
        ops.push(() => {
          const zset = this.zsets.get(key) ?? new Map<string, number>();
          const nx = args[0] === 'NX';
          const rest = nx ? args.slice(1) : args;
          for (let i = 0; i < rest.length; i += 2) {
            const member = String(rest[i + 1]);
            if (!nx || !zset.has(member)) zset.set(member, Number(rest[i]));
          }
          this.zsets.set(key, zset);
        });
        return tx;
      },
      zrem: (key, ...members) => (ops.push(() => members.forEach((m) => this.zsets.get(key)?.delete(m))), tx),
      exec: async () => ops.map((op) => (op(), [null, 'OK'] as [null, unknown])),
    };
    return tx;
  }
}

const config: PartnerConfig = {
  advId: 'acme', signingSecret: 'k', country: 'NO', timeZone: 'Europe/Oslo',
  sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'recycle', fallbackNumber: null,
}; // prettier-ignore

function source(id: string, destnr: string, phonenr: string, closed = false): SourceRoute {
  return {
    sourceId: id,
    customerId: '1',
    destnr,
    phonenr,
    altNumbers: [],
    vmDivertAll: false,
    vmDivertBusy: false,
    vmDivertNoanswer: false,
    vmGreetingId: null,
    closed,
  };
}

describe('writePartnerProjection', () => {
  const keys = partnerKeys('p:', 'acme');
  const index = numberIndexKey('p:');

  it('writes config, pool, routes and index, keeps pool scores and drops what left', async () => {
    const redis = new MemoryRedis();
    await writePartnerProjection(redis, 'p:', {
      config,
      poolNumbers: ['+4791000001', '+4791000002'],
      sources: [source('1', '+4790000001', '+4722334455')],
    });
    expect(decodePartnerConfig(Object.fromEntries(redis.hashes.get(keys.config)!))).toEqual(config);
    redis.zsets.get(keys.pool)!.set('+4791000001', 5_000); // as the allocation script would
    redis.hashes.get(index)!.set('+4791000002', 'pool:other'); // moved to another partner meanwhile

    await writePartnerProjection(redis, 'p:', {
      config,
      poolNumbers: ['+4791000001', '+4791000003'],
      sources: [source('2', '+4790000002', '+4722334455')],
    });
    expect([...redis.zsets.get(keys.pool)!.entries()]).toEqual([
      ['+4791000001', 5_000],
      ['+4791000003', 0],
    ]);
    expect(await redis.hkeys(keys.staticRoutes)).toEqual(['+4790000002']);
    expect(decodeSourceRoute(redis.hashes.get(keys.sourcesByPhonenr)!.get('+4722334455')!).sourceId).toBe(
      '2',
    );
    const entries = Object.fromEntries(redis.hashes.get(index)!);
    expect(entries).toEqual({
      '+4791000001': 'pool:acme',
      '+4791000002': 'pool:other',
      '+4791000003': 'pool:acme',
      '+4790000002': 'static:acme',
    });
    expect(decodeNumberIndexEntry(entries['+4790000002']!)).toEqual({ advId: 'acme', kind: 'static' });
  });

  it('attributes a shared answering number to the open, newest source', () => {
    const chosen = answeringSources([
      source('9', '+4790000009', '+4722334455'),
      source('10', '+4790000010', '+4722334455'),
      source('11', '+4790000011', '+4722334455', true),
      source('3', '+4790000003', '+4722000000'),
    ]);
    expect(chosen.map((s) => s.sourceId).sort()).toEqual(['10', '3']);
  });
});
