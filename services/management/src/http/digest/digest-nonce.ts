import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type NonceCheck =
  { state: 'valid'; expiresAt: number; epoch: string } | { state: 'stale' } | { state: 'invalid' };

const TIME_HEX = 12;
const RANDOM_HEX = 16;
/** Length of a Redis epoch (nonce-counter.ts) as hexadecimal. */
export const EPOCH_HEX = 16;
const MAC_HEX = 32;
const BODY_HEX = TIME_HEX + RANDOM_HEX + EPOCH_HEX;
const NONCE_PATTERN = new RegExp(`^[0-9a-f]{${BODY_HEX + MAC_HEX}}$`);
/** Named by nonces issued before the epoch is known (Redis unreachable): never a real epoch, so stale. */
export const NO_EPOCH = '0'.repeat(EPOCH_HEX);
/** Replicas' clocks may differ a little; a nonce "from the future" beyond this is forged. */
const CLOCK_SKEW_MS = 30_000;

/**
 * Stateless digest nonces: issue time + random salt + Redis epoch + HMAC of the three under a key
 * every replica shares. Any replica can verify one without having issued it, and issuing one
 * stores nothing, so a flood of unauthenticated requests cannot grow memory (http-auth keeps every
 * nonce in an array). The epoch names the Redis data holding the nonce's `nc` counters: a nonce of
 * another epoch may have counters Redis lost, so it is answered stale (docs/redis-keys.md, Digest
 * nonces). Whatever Redis holds, a nonce expires `ttlMs` after its issue.
 */
export class NonceIssuer {
  constructor(
    private readonly secret: string,
    private readonly ttlMs: number,
  ) {}

  issue(now: Date, epoch: string): string {
    const time = now.getTime().toString(16).padStart(TIME_HEX, '0');
    const salt = randomBytes(RANDOM_HEX / 2).toString('hex');
    const named = /^[0-9a-f]+$/.test(epoch) && epoch.length === EPOCH_HEX ? epoch : NO_EPOCH;
    const body = `${time}${salt}${named}`;
    return `${body}${this.mac(body)}`;
  }

  check(nonce: string, now: Date): NonceCheck {
    if (!NONCE_PATTERN.test(nonce)) return { state: 'invalid' };
    const body = nonce.slice(0, BODY_HEX);
    const given = Buffer.from(nonce.slice(BODY_HEX), 'hex');
    if (!timingSafeEqual(given, Buffer.from(this.mac(body), 'hex'))) return { state: 'invalid' };
    const issuedAt = parseInt(nonce.slice(0, TIME_HEX), 16);
    if (issuedAt > now.getTime() + CLOCK_SKEW_MS) return { state: 'invalid' };
    const expiresAt = issuedAt + this.ttlMs;
    if (now.getTime() >= expiresAt) return { state: 'stale' };
    return { state: 'valid', expiresAt, epoch: nonce.slice(TIME_HEX + RANDOM_HEX, BODY_HEX) };
  }

  private mac(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('hex').slice(0, MAC_HEX);
  }
}
