import { createHmac, randomUUID } from 'node:crypto';
import { writePartnerProjection, type PartnerConfig } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { RedisNumberPoolStore } from '../src/pools/number-pool.store';
import type { SignedRequest } from './bench-load';

export type Workload = 'new' | 'existing';

/** The number shown on the page, already in E.164 so the baseline (which parses no numbers) binds the same key. */
const NUMBER_ON_PAGE = '+4722334455';

/**
 * Pool sizes as real traffic has them: new sessions get a pool of 1,000 that the first thousand
 * exhaust, so the rest of the phase recycles (on_exhausted=recycle, the least recently used number);
 * returning sessions are many, rotated, each keeping its own number (docs/benchmarks.md).
 */
export const NEW_SESSION_POOL = 1_000;
export const EXISTING_SESSIONS = 500;

export interface BenchPartner {
  config: PartnerConfig;
  workload: Workload;
}

/** A bench partner's settings: Norwegian numbers, 30-minute sessions, recycling when the pool runs out. */
export function benchPartnerConfig(advId: string): PartnerConfig {
  return {
    advId,
    signingSecret: `bench-secret-${randomUUID()}`,
    country: 'NO',
    timeZone: 'Europe/Oslo',
    sessionTtlSeconds: 1800,
    holdBackSeconds: 600,
    onExhausted: 'recycle',
    fallbackNumber: null,
  };
}

/** One partner per server and workload, so no server sees the other's sessions or pool state. */
export async function createBenchPartner(
  redis: RedisConnection,
  keyPrefix: string,
  server: string,
  workload: Workload,
  index: number,
): Promise<BenchPartner> {
  const config = benchPartnerConfig(`bench-${server}-${workload}`);
  const size = workload === 'new' ? NEW_SESSION_POOL : Math.ceil(EXISTING_SESSIONS * 1.25);
  // Distinct ranges: the tracking-number index maps each number to one partner.
  const pool = Array.from({ length: size }, (_, i) => `+47${90_000_000 + index * 100_000 + i}`);
  await writePartnerProjection(redis, keyPrefix, { config, poolNumbers: pool, sources: [] });
  return { config, workload };
}

/** Sessions made by the allocation script itself (as a first request would), returned by id. */
export async function createSessions(
  redis: RedisConnection,
  keyPrefix: string,
  partner: PartnerConfig,
  count: number,
): Promise<string[]> {
  const store = new RedisNumberPoolStore(redis, keyPrefix);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const result = await store.allocate({
      advId: partner.advId,
      now: Date.now(),
      sessionTtlSeconds: partner.sessionTtlSeconds,
      holdBackSeconds: partner.holdBackSeconds,
      onExhausted: partner.onExhausted,
      sessionId: null,
      newSessionId: randomUUID(),
      context: visitorContext(i),
      customer: {
        advId: partner.advId,
        custnr: 'C-1',
        custname: 'Kari Nordmann',
        custemail: 'kari@example.no',
        at: Date.now(),
      },
      numbersOnPage: [NUMBER_ON_PAGE],
    });
    if (result.kind !== 'allocated') throw new Error(`partner ${partner.advId} has no pool`);
    ids.push(result.sessionId);
  }
  return ids;
}

/** The signed requests of a workload: one body without a sessionId, or one per existing session. */
export function signedRequests(partner: PartnerConfig, sessionIds: string[] | null): SignedRequest[] {
  const bodies =
    sessionIds === null
      ? [requestBody(partner.advId, '', 0)]
      : sessionIds.map((id, i) => requestBody(partner.advId, id, i));
  return bodies.map((text) => {
    const body = Buffer.from(text);
    return { body, signature: createHmac('sha1', partner.signingSecret).update(body).digest('hex') };
  });
}

// A web request as the seed shows it, with a customer, so the customer-seen marker check runs too.
function requestBody(advId: string, sessionId: string, visitor: number): string {
  const context = visitorContext(visitor);
  return JSON.stringify({
    advId,
    fullUrl: context.fullUrl,
    trackingId: context.trackingId,
    numbers: NUMBER_ON_PAGE,
    type: 'web',
    fullReferrer: context.fullReferrer,
    parameters: context.parameters,
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    requestIpAddress: '203.0.113.0',
    sessionId,
  });
}

function visitorContext(visitor: number) {
  return {
    type: 'web' as const,
    trackingId: `visitor-${visitor}`,
    fullUrl: 'https://www.example.no/ad/1234',
    fullReferrer: 'https://www.google.com/',
    custnr: 'C-1',
    parameters: { custnr: 'C-1', custname: 'Kari Nordmann', custemail: 'kari@example.no', adId: '1234' },
  };
}

/** Deletes every key of this run (SCAN + UNLINK on its own prefix; nothing else on the server). */
export async function deleteRunKeys(redis: RedisConnection, keyPrefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
    if (keys.length > 0) deleted += await redis.unlink(...keys);
    cursor = nextCursor;
  } while (cursor !== '0');
  return deleted;
}
