import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CustomerSeenEvent, PartnerConfig } from '@trackline/contracts';
import { verifySignature } from '@trackline/domain';
import type { RedisConnection } from '@trackline/platform';
import { RedisPartnerConfigStore } from '../partners/partner-config.store';
import { RedisNumberPoolStore } from '../pools/number-pool.store';

/**
 * The baseline of docs/benchmarks.md, Targets: plain `node:http` doing what a replacement request cannot do
 * without — read the body, parse the JSON, check the HMAC, run the same allocation script with the same
 * arguments (through the service's own store, so the Redis work cannot drift from the service's) — and
 * nothing else: no Express, no field validation, no phone-number parsing, no access log. Partner settings are
 * read once per partner and kept for the life of the process.
 */
export function createBareServer(redis: RedisConnection, keyPrefix: string): Server {
  const partnersStore = new RedisPartnerConfigStore(redis, keyPrefix);
  const pools = new RedisNumberPoolStore(redis, keyPrefix);
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
    const parameters = body.parameters as Record<string, string>;
    const numbersOnPage = String(body.numbers)
      .split(',')
      .map((n) => n.trim());
    const sessionId = typeof body.sessionId === 'string' && body.sessionId !== '' ? body.sessionId : null;
    let customer: CustomerSeenEvent | null = null;
    if (parameters.custnr !== undefined) {
      customer = { advId, custnr: parameters.custnr, at: Date.now() };
      if (parameters.custname !== undefined) customer.custname = parameters.custname;
      if (parameters.custemail !== undefined) customer.custemail = parameters.custemail;
    }
    const result = await pools.allocate({
      advId,
      now: Date.now(),
      sessionTtlSeconds: partner.sessionTtlSeconds,
      holdBackSeconds: partner.holdBackSeconds,
      onExhausted: partner.onExhausted,
      sessionId,
      newSessionId: randomUUID(),
      context: {
        type: body.type === 'app' ? 'app' : 'web',
        trackingId: String(body.trackingId),
        fullUrl: String(body.fullUrl),
        fullReferrer: String(body.fullReferrer),
        custnr: parameters.custnr ?? null,
        parameters,
      },
      customer,
      numbersOnPage,
    });
    if (result.kind === 'no_pool')
      return reply(res, started, { success: false, error: 'No number pool configured' });
    reply(res, started, {
      success: true,
      numbers: numbersOnPage.map((onPage, i) => {
        const e164 = result.numbers[i] ?? onPage;
        return { number_on_page: onPage, replace_with: { e164, local: e164 } };
      }),
      sessionId: result.sessionId,
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
