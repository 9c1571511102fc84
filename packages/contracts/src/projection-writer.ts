import { compareDecimalIds } from '@trackline/domain';
import { encodeNumberIndexEntry } from './number-index.codec';
import { encodePartnerConfig, type PartnerConfig } from './partner-config.codec';
import { numberIndexKey, partnerKeys } from './redis-keys';
import { encodeSourceRoute, type SourceRoute } from './source-route.codec';

/**
 * The smallest slice of a Redis client the writer needs (ioredis `Redis` and `Cluster` both fit),
 * so this package stays free of connections and of an ioredis dependency.
 */
export interface ProjectionRedis {
  zrange(key: string, start: number, stop: number): Promise<string[]>;
  hkeys(key: string): Promise<string[]>;
  hmget(key: string, ...fields: string[]): Promise<Array<string | null>>;
  hset(key: string, values: Record<string, string>): Promise<number>;
  hdel(key: string, ...fields: string[]): Promise<number>;
  multi(): ProjectionTransaction;
}

export interface ProjectionTransaction {
  del(key: string): ProjectionTransaction;
  hset(key: string, values: Record<string, string>): ProjectionTransaction;
  zadd(key: string, ...scoreMembers: Array<string | number>): ProjectionTransaction;
  zrem(key: string, ...members: string[]): ProjectionTransaction;
  exec(): Promise<Array<[Error | null, unknown]> | null>;
}

/** Everything management projects for one partner. */
export interface PartnerProjection {
  config: PartnerConfig;
  /** The partner's pool numbers, E.164. */
  poolNumbers: readonly string[];
  /** Sources with a static tracking number, open ones and closed ones still held back. */
  sources: readonly SourceRoute[];
  /**
   * The partner's static numbers no source holds (docs/numbers-and-sources.md, "Free static
   * numbers"): indexed like the others, so replacement refuses them as page numbers and routes a call
   * to one to the partner's fallback number. Left out: none.
   */
  freeStaticNumbers?: readonly string[];
  /** The partner's spam lists, caller (E.164) → list (docs/spam.md). Left out: the key is not touched. */
  spamLists?: Readonly<Record<string, 'block' | 'allow'>>;
}

/**
 * Writes (or rewrites) one partner's projection so that afterwards Redis holds exactly it, whatever
 * was there before; running it twice changes nothing. The partner's keys change in one MULTI (one
 * slot thanks to the hash tag); the global number index follows in a second step — it lives in
 * another slot — adding this partner's numbers and dropping the ones it no longer has.
 *
 * Pool members are added with ZADD NX score 0 ("free since ever") so the scores the allocation
 * script maintains — bound numbers and least-recently-used order — survive a rebuild.
 */
export async function writePartnerProjection(
  redis: ProjectionRedis,
  prefix: string,
  projection: PartnerProjection,
): Promise<void> {
  const keys = partnerKeys(prefix, projection.config.advId);
  const [currentPool, currentStatic] = await Promise.all([
    redis.zrange(keys.pool, 0, -1),
    redis.hkeys(keys.staticRoutes),
  ]);
  const wantedPool = new Set(projection.poolNumbers);
  const removedPool = currentPool.filter((number) => !wantedPool.has(number));

  const staticRoutes: Record<string, string> = {};
  for (const source of projection.sources) staticRoutes[source.destnr] = encodeSourceRoute(source);
  const byPhonenr: Record<string, string> = {};
  for (const source of answeringSources(projection.sources))
    byPhonenr[source.phonenr] = encodeSourceRoute(source);
  const removedStatic = currentStatic.filter((destnr) => staticRoutes[destnr] === undefined);

  const tx = redis.multi().del(keys.config).hset(keys.config, encodePartnerConfig(projection.config));
  tx.del(keys.staticRoutes).del(keys.sourcesByPhonenr);
  if (Object.keys(staticRoutes).length > 0) tx.hset(keys.staticRoutes, staticRoutes);
  if (Object.keys(byPhonenr).length > 0) tx.hset(keys.sourcesByPhonenr, byPhonenr);
  if (projection.spamLists !== undefined) {
    tx.del(keys.spamLists);
    if (Object.keys(projection.spamLists).length > 0) tx.hset(keys.spamLists, { ...projection.spamLists });
  }
  if (removedPool.length > 0) tx.zrem(keys.pool, ...removedPool);
  if (wantedPool.size > 0) tx.zadd(keys.pool, 'NX', ...[...wantedPool].flatMap((number) => [0, number]));
  await execOrThrow(tx);

  const index: Record<string, string> = {};
  for (const number of wantedPool)
    index[number] = encodeNumberIndexEntry({ advId: keys.advId, kind: 'pool' });
  for (const destnr of [...Object.keys(staticRoutes), ...(projection.freeStaticNumbers ?? [])]) {
    index[destnr] = encodeNumberIndexEntry({ advId: keys.advId, kind: 'static' });
  }
  if (Object.keys(index).length > 0) await redis.hset(numberIndexKey(prefix), index);
  // A number that only changed kind (pool ↔ static) was just re-indexed above and must stay.
  const dropped = [...removedPool, ...removedStatic].filter((number) => index[number] === undefined);
  await dropIndexEntries(redis, prefix, keys.advId, dropped);
}

/**
 * Removes index entries that still point to this partner (a number moved to another partner in
 * between keeps its new entry).
 */
async function dropIndexEntries(
  redis: ProjectionRedis,
  prefix: string,
  advId: string,
  numbers: string[],
): Promise<void> {
  if (numbers.length === 0) return;
  const candidates = [...new Set(numbers)];
  const indexKey = numberIndexKey(prefix);
  const current = await redis.hmget(indexKey, ...candidates);
  const ours = new Set([
    encodeNumberIndexEntry({ advId, kind: 'pool' }),
    encodeNumberIndexEntry({ advId, kind: 'static' }),
  ]);
  const stale = candidates.filter((_, i) => current[i] !== null && ours.has(current[i]!));
  if (stale.length > 0) await redis.hdel(indexKey, ...stale);
}

/**
 * When several sources share an answering number, a pool binding to that number is attributed to
 * one of them: an open source before a closed one, then the highest source_id (the newest).
 */
export function answeringSources(sources: readonly SourceRoute[]): SourceRoute[] {
  const chosen = new Map<string, SourceRoute>();
  for (const source of sources) {
    const current = chosen.get(source.phonenr);
    if (current === undefined || ranksAbove(source, current)) chosen.set(source.phonenr, source);
  }
  return [...chosen.values()];
}

function ranksAbove(a: SourceRoute, b: SourceRoute): boolean {
  if (a.closed !== b.closed) return !a.closed;
  return compareIds(a.sourceId, b.sourceId) > 0;
}

// Decimal ids compare as numbers ("10" after "9"); anything else falls back to string order.
function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return compareDecimalIds(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

async function execOrThrow(tx: ProjectionTransaction): Promise<void> {
  const results = await tx.exec();
  if (results === null) throw new Error('projection transaction was aborted');
  const failed = results.find(([error]) => error !== null);
  if (failed !== undefined) throw failed[0]!;
}
