import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { CustomerSeenEvent } from '@trackline/contracts';
import type { RedisConnection } from '@trackline/platform';
import { RedisNumberPoolStore } from '../src/pools/number-pool.store';
import { PoolTelemetry } from '../src/pools/pool-telemetry';
import { SentCustomerMemory } from '../src/pools/sent-customers.memory';
import { createBaselineServer } from './baseline-http';

/**
 * The baseline of docs/benchmarks.md, Targets: plain `node:http` doing what a replacement request cannot do
 * without — read the body, parse the JSON, check the HMAC, run the same allocation script with the same
 * arguments (through the service's own store, so the Redis work cannot drift from the service's) — and
 * nothing else (baseline-http.ts): no Express, no field validation, no phone-number parsing, no access log.
 */
export function createBareServer(redis: RedisConnection, keyPrefix: string): Server {
  // As the service composes it (app.ts), with the default PARTNER_CONFIG_CACHE_MS.
  const telemetry = new PoolTelemetry(redis, keyPrefix, () => {});
  telemetry.start();
  const pools = new RedisNumberPoolStore(redis, keyPrefix, {
    sentCustomers: new SentCustomerMemory(1000),
    telemetry,
  });
  return createBaselineServer(redis, keyPrefix, async (partner, body) => {
    const advId = partner.advId;
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
    if (result.kind === 'no_pool') return { success: false, error: 'No number pool configured' };
    return {
      success: true,
      numbers: numbersOnPage.map((onPage, i) => {
        const e164 = result.numbers[i] ?? onPage;
        return { number_on_page: onPage, replace_with: { e164, local: e164 } };
      }),
      sessionId: result.sessionId,
    };
  });
}
