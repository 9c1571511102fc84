import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { digest, type DigestOptions } from 'http-auth';
import type { DigestCredentials, PartnerDirectory } from './partner-directory';
import { parseDigestAuthorization } from './digest-header';
import type { NonceIssuer } from './digest-nonce';
import type { NonceCounter } from './nonce-counter';

/** http-auth's Digest class, reached through an instance: the package exports only a factory. */
type HttpAuthDigest = new (options: DigestOptions) => {
  parseAuthorization(header: string): Record<string, string> | undefined;
};
const HttpAuthDigest = Object.getPrototypeOf(digest({ realm: 'unused' })).constructor as HttpAuthDigest;

type Hash = 'md5' | 'sha256';
const ALGORITHM_NAMES = new Map<string, { hash: Hash; session: boolean }>([
  ['MD5', { hash: 'md5', session: false }],
  ['MD5-SESS', { hash: 'md5', session: true }],
  ['SHA-256', { hash: 'sha256', session: false }],
  ['SHA-256-SESS', { hash: 'sha256', session: true }],
]);
const NC_PATTERN = /^[0-9a-f]{8}$/i;

export type DigestOutcome =
  { pass: true; credentials: DigestCredentials } | { pass: false; reason: string; stale: boolean };

/**
 * RFC 7616 digest authentication on top of http-auth's Digest (its realm handling is kept); what
 * it lacks is replaced (docs/architecture.md, Partner authentication) —
 * - its Authorization parser is quadratic in the header's length (a 16 KB header costs 300 ms of
 *   CPU before the client is known): ours is bounded in length and linear (digest-header.ts);
 * - nonces are stateless (NonceIssuer) instead of an unbounded in-memory array one process knows;
 * - an expired nonce with a correct response gets `stale=true`, so clients retry silently;
 * - `nc` must grow per nonce across all replicas (NonceCounter in Redis), so a replay fails; a
 *   nonce names the Redis epoch of its counters and is stale once Redis lost them;
 * - `qop=auth` is required (a response without qop has no replay guard);
 * - the header's `uri` must be the request line's target;
 * - responses are compared in constant time; SHA-256 is accepted besides MD5;
 * - an unknown username is checked against a random HA1, so it costs what a wrong password costs.
 */
export class DigestAuthenticator extends HttpAuthDigest {
  constructor(
    private readonly realm: string,
    private readonly nonceIssuer: NonceIssuer,
    private readonly counter: NonceCounter,
    private readonly partners: PartnerDirectory,
  ) {
    super({ realm, qop: 'auth', algorithm: 'MD5' });
  }

  /** http-auth's own parser must never run (see above); this one gives its result shape. */
  override parseAuthorization(header: string): Record<string, string> | undefined {
    const parsed = parseDigestAuthorization(header);
    return parsed.ok
      ? Object.assign(Object.create(null) as Record<string, string>, Object.fromEntries(parsed.params))
      : undefined;
  }

  /** Stands in for the HA1 of a username nobody has: never equal to a real one, same hash work. */
  private readonly unknownUserHa1 = {
    md5: randomBytes(16).toString('hex'),
    sha256: randomBytes(32).toString('hex'),
  };

  /** The WWW-Authenticate challenges of a 401: MD5 first, which every digest client speaks. */
  challenges(now: Date, stale: boolean): string[] {
    const nonce = this.nonceIssuer.issue(now, this.counter.currentEpoch());
    return ['MD5', 'SHA-256'].map(
      (algorithm) =>
        `Digest realm="${this.realm}", qop="auth", algorithm=${algorithm}, nonce="${nonce}", stale=${stale ? 'true' : 'false'}`,
    );
  }

  /**
   * Checks the request's Authorization header. `method` and `target` are the request line's as
   * sent (before any override or rewrite): that is what the client hashed. Stores nothing unless
   * the response is correct.
   */
  async authenticate(
    req: IncomingMessage,
    method: string,
    target: string,
    now: Date,
  ): Promise<DigestOutcome> {
    const header = req.headers.authorization;
    if (header === undefined) return fail('Digest authentication required');
    const parsed = parseDigestAuthorization(header);
    if (!parsed.ok) return fail(parsed.reason);
    const field = (name: string): string | undefined => parsed.params.get(name);
    const [username, realm, nonce, uri, response, qop, nc, cnonce] = [
      'username',
      'realm',
      'nonce',
      'uri',
      'response',
      'qop',
      'nc',
      'cnonce',
    ].map(field);
    if (!username || !nonce || !uri || !response) return fail('Incomplete digest credentials');
    if (realm !== this.realm) return fail(`Digest realm must be "${this.realm}"`);
    if (qop !== 'auth' || !cnonce || !nc || !NC_PATTERN.test(nc)) {
      return fail('Digest qop=auth with cnonce and nc is required');
    }
    const algorithm = ALGORITHM_NAMES.get((field('algorithm') ?? 'MD5').toUpperCase());
    if (algorithm === undefined) return fail('Unsupported digest algorithm; use MD5 or SHA-256');
    if (uri !== target) return fail('Digest uri does not match the request');
    const nonceCheck = this.nonceIssuer.check(nonce, now);
    if (nonceCheck.state === 'invalid') return fail('Invalid digest nonce');

    const credentials = await this.partners.findForDigest(username);
    const hash = (text: string): string => createHash(algorithm.hash).update(text).digest('hex');
    // An unknown username goes through the same hashing and comparison as a wrong password.
    let ha1 =
      credentials === null
        ? this.unknownUserHa1[algorithm.hash]
        : algorithm.hash === 'md5'
          ? credentials.ha1Md5
          : credentials.ha1Sha256;
    if (algorithm.session) ha1 = hash(`${ha1}:${nonce}:${cnonce}`);
    const ha2 = hash(`${method}:${uri}`);
    const expected = hash(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`);
    if (!sameText(expected, response.toLowerCase()) || credentials === null)
      return fail('Invalid credentials');

    if (nonceCheck.state === 'stale') return expired();
    const counted = await this.counter.advance(
      nonce,
      nonceCheck.epoch,
      parseInt(nc, 16),
      nonceCheck.expiresAt - now.getTime(),
    );
    // Issued before Redis lost its data (the counters that would catch a replay went with it):
    // stale, so a client that knows the password retries with a fresh nonce and a replay fails.
    if (counted === 'stale-epoch') return expired();
    if (counted === 'replayed') return fail('Digest nonce count already used (replayed request)');
    return { pass: true, credentials };
  }
}

function expired(): DigestOutcome {
  return { pass: false, reason: 'Digest nonce expired', stale: true };
}

function fail(reason: string): DigestOutcome {
  return { pass: false, reason, stale: false };
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
