import { randomUUID } from 'node:crypto';
import { verifySignature } from '@trackline/domain';
import { benchPartnerConfig, signedRequests } from './bench-fixtures';

const PARTNER = benchPartnerConfig('bench-minimal-work');

/**
 * The minimal server's request (minimal-server.ts, baseline-http.ts) less its sockets and Redis:
 * JSON parse, HMAC check, the seed's answer, JSON-encoded. Benches that time work in one process
 * (docs/benchmarks.md, Request work in one process) run it beside their own as the machine's
 * yardstick.
 */
export function minimalRequestWork(): () => Promise<number> {
  const [{ body, signature }] = signedRequests(PARTNER, null);
  return async () => JSON.stringify(await minimalAnswer(body!, signature!)).length;
}

function minimalAnswer(body: Buffer, signature: string): Promise<unknown> {
  const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  if (!verifySignature(PARTNER.signingSecret, body, signature)) throw new Error('bad signature');
  const sessionId =
    typeof parsed.sessionId === 'string' && parsed.sessionId !== '' ? parsed.sessionId : randomUUID();
  const number = '+4790000001';
  return Promise.resolve({
    success: true,
    numbers: [
      { number_on_page: String(parsed.numbers).trim(), replace_with: { e164: number, local: number } },
    ],
    sessionId,
  });
}

/** µs per call of work, run `calls` times one after the other. */
export async function microsecondsPerCall(
  work: () => Promise<unknown> | unknown,
  calls: number,
): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await work();
  return Number(process.hrtime.bigint() - started) / 1e3 / calls;
}
