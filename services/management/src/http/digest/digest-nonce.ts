import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type NonceCheck = { state: 'valid'; expiresAt: number } | { state: 'stale' } | { state: 'invalid' };

const TIME_HEX = 12;
const RANDOM_HEX = 16;
const MAC_HEX = 32;
const NONCE_PATTERN = new RegExp(`^[0-9a-f]{${TIME_HEX + RANDOM_HEX + MAC_HEX}}$`);
/** Replicas' clocks may differ a little; a nonce "from the future" beyond this is forged. */
const CLOCK_SKEW_MS = 30_000;

/**
 * Stateless digest nonces: issue time + random salt + HMAC of both under a key every replica
 * shares. Any replica can verify one without having issued it, and issuing one stores nothing, so
 * a flood of unauthenticated requests cannot grow memory (http-auth keeps every nonce in an array).
 */
export class NonceIssuer {
  constructor(
    private readonly secret: string,
    private readonly ttlMs: number,
  ) {}

  issue(now: Date): string {
    const time = now.getTime().toString(16).padStart(TIME_HEX, '0');
    const salt = randomBytes(RANDOM_HEX / 2).toString('hex');
    return `${time}${salt}${this.mac(time + salt)}`;
  }

  check(nonce: string, now: Date): NonceCheck {
    if (!NONCE_PATTERN.test(nonce)) return { state: 'invalid' };
    const body = nonce.slice(0, TIME_HEX + RANDOM_HEX);
    const given = Buffer.from(nonce.slice(TIME_HEX + RANDOM_HEX), 'hex');
    if (!timingSafeEqual(given, Buffer.from(this.mac(body), 'hex'))) return { state: 'invalid' };
    const issuedAt = parseInt(nonce.slice(0, TIME_HEX), 16);
    if (issuedAt > now.getTime() + CLOCK_SKEW_MS) return { state: 'invalid' };
    const expiresAt = issuedAt + this.ttlMs;
    if (now.getTime() >= expiresAt) return { state: 'stale' };
    return { state: 'valid', expiresAt };
  }

  private mac(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('hex').slice(0, MAC_HEX);
  }
}
