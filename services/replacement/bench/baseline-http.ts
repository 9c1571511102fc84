import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { PartnerConfig } from '@trackline/contracts';
import { verifySignature } from '@trackline/domain';
import type { RedisConnection } from '@trackline/platform';
import { RedisPartnerConfigStore } from '../src/partners/partner-config.store';

/** What a baseline server does with a request whose signature checked out: the body it answers. */
export type BaselineAllocation = (partner: PartnerConfig, body: Record<string, unknown>) => Promise<unknown>;

/**
 * The HTTP part both baseline servers share (docs/benchmarks.md): plain `node:http`, the body read
 * and parsed as JSON, the partner's settings read once per partner and kept for the life of the
 * process, the HMAC checked; then `allocate` answers. No Express, no field validation, no access log.
 */
export function createBaselineServer(
  redis: RedisConnection,
  keyPrefix: string,
  allocate: BaselineAllocation,
): Server {
  const partnersStore = new RedisPartnerConfigStore(redis, keyPrefix);
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
    reply(res, started, await allocate(partner, body));
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
