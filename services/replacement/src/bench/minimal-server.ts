import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { partnerKeys, type PartnerConfig } from '@trackline/contracts';
import { verifySignature } from '@trackline/domain';
import type { RedisConnection } from '@trackline/platform';
import { RedisPartnerConfigStore } from '../partners/partner-config.store';

/**
 * The smallest allocation a tracking-number request could run: a sticky number per session, taken
 * least recently used from the pool. Three commands for an existing session (HGET, ZADD, PEXPIRE),
 * five for a new one (ZRANGE and HSET as well). No hold-back, no recycling rule, no binding, no
 * customer event: the floor the whole-system bench measures the service against (docs/benchmarks.md).
 */
const MINIMAL_ALLOCATION = `
local number = redis.call('HGET', KEYS[1], 'n')
if not number then
  number = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not number then return false end
  redis.call('HSET', KEYS[1], 'n', number)
end
redis.call('ZADD', KEYS[2], ARGV[1], number)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return number
`;

interface MinimalScripts {
  minimalAllocate(session: string, pool: string, score: number, ttlMs: number): Promise<string | null>;
}

export interface MinimalAllocator {
  /** The session's number (a new session when `sessionId` is null); null when the pool is empty. */
  allocate(partner: PartnerConfig, sessionId: string, now: number): Promise<string | null>;
}

export function minimalAllocator(redis: RedisConnection, keyPrefix: string): MinimalAllocator {
  const client = redis as RedisConnection & Partial<MinimalScripts>;
  if (typeof client.minimalAllocate !== 'function') {
    redis.defineCommand('minimalAllocate', { numberOfKeys: 2, lua: MINIMAL_ALLOCATION });
  }
  const scripts = client as RedisConnection & MinimalScripts;
  return {
    allocate: (partner, sessionId, now) => {
      const keys = partnerKeys(keyPrefix, partner.advId);
      const ttlMs = partner.sessionTtlSeconds * 1000;
      const score = now + ttlMs + partner.holdBackSeconds * 1000;
      return scripts.minimalAllocate(keys.webSession(sessionId), keys.pool, score, ttlMs);
    },
  };
}

/**
 * The minimal bare server: `node:http`, the body read and parsed as JSON, the HMAC checked, the
 * minimal allocation above, the seed's success body — nothing else. Partner settings are read once
 * per partner and kept for the life of the process.
 */
export function createMinimalServer(redis: RedisConnection, keyPrefix: string): Server {
  const partnersStore = new RedisPartnerConfigStore(redis, keyPrefix);
  const allocator = minimalAllocator(redis, keyPrefix);
  const partners = new Map<string, PartnerConfig | null>();

  const handle = async (req: IncomingMessage, res: ServerResponse, started: bigint): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const advId = String(body.advId);
    let partner = partners.get(advId);
    if (partner === undefined) {
      partner = await partnersStore.find(advId);
      partners.set(advId, partner);
    }
    const signature = req.headers['x-sign'];
    if (
      partner === null ||
      !verifySignature(partner.signingSecret, raw, typeof signature === 'string' ? signature : undefined)
    ) {
      return reply(res, started, { success: false, error: 'Invalid signature' });
    }
    const sessionId =
      typeof body.sessionId === 'string' && body.sessionId !== '' ? body.sessionId : randomUUID();
    const onPage = String(body.numbers).trim();
    const number = await allocator.allocate(partner, sessionId, Date.now());
    if (number === null) return reply(res, started, { success: false, error: 'No number pool configured' });
    reply(res, started, {
      success: true,
      numbers: [{ number_on_page: onPage, replace_with: { e164: number, local: number } }],
      sessionId,
    });
  };

  return createServer((req, res) => {
    const started = process.hrtime.bigint();
    handle(req, res, started).catch((error: unknown) => {
      reply(res, started, { success: false, error: error instanceof Error ? error.message : String(error) });
    });
  });
}

// The same Server-Timing the service writes, so both processing times are read the same way.
function reply(res: ServerResponse, started: bigint, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Server-Timing': `app;dur=${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(2)}`,
  });
  res.end(payload);
}
