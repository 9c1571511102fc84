import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { digest, type DigestOptions } from 'http-auth';
import type { DigestCredentials, PartnerDirectory } from '../../partners/partner-directory';
import type { NonceIssuer } from './digest-nonce';
import type { NonceCounter } from './nonce-counter';

/** http-auth's Digest class, reached through an instance: the package exports only a factory. */
type HttpAuthDigest = new (options: DigestOptions) => {
  parseAuthorization(header: string): Record<string, string> | undefined;
};
const HttpAuthDigest = Object.getPrototypeOf(digest({ realm: 'unused' })).constructor as HttpAuthDigest;

type Hash = 'md5' | 'sha256';
const ALGORITHMS: Record<string, { hash: Hash; session: boolean }> = {
  MD5: { hash: 'md5', session: false },
  'MD5-SESS': { hash: 'md5', session: true },
  'SHA-256': { hash: 'sha256', session: false },
  'SHA-256-SESS': { hash: 'sha256', session: true },
};
const NC_PATTERN = /^[0-9a-f]{8}$/i;

export type DigestOutcome =
  { pass: true; credentials: DigestCredentials } | { pass: false; reason: string; stale: boolean };

/**
 * RFC 7616 digest authentication on top of http-auth's Digest: its Authorization parser and realm
 * handling are kept; what SPEC §6 finds lacking is replaced —
 * - nonces are stateless (NonceIssuer) instead of an unbounded in-memory array one process knows;
 * - an expired nonce with a correct response gets `stale=true`, so clients retry silently;
 * - `nc` must grow per nonce across all replicas (NonceCounter in Redis), so a replay fails;
 * - `qop=auth` is required (http-auth accepts responses without qop, which have no replay guard);
 * - the header's `uri` must be the request line's target;
 * - responses are compared in constant time; SHA-256 is accepted besides MD5.
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

  /** The WWW-Authenticate challenges of a 401: MD5 first, which every digest client speaks. */
  challenges(now: Date, stale: boolean): string[] {
    const nonce = this.nonceIssuer.issue(now);
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
    const fields = header === undefined ? undefined : this.parseAuthorization(header);
    if (fields === undefined) return fail('Digest authentication required');
    const { username, realm, nonce, uri, response, qop, nc, cnonce } = fields;
    if (!username || !nonce || !uri || !response) return fail('Incomplete digest credentials');
    if (realm !== this.realm) return fail(`Digest realm must be "${this.realm}"`);
    if (qop !== 'auth' || !cnonce || !nc || !NC_PATTERN.test(nc)) {
      return fail('Digest qop=auth with cnonce and nc is required');
    }
    const algorithm = ALGORITHMS[(fields.algorithm ?? 'MD5').toUpperCase()];
    if (algorithm === undefined) return fail('Unsupported digest algorithm; use MD5 or SHA-256');
    if (uri !== target) return fail('Digest uri does not match the request');
    const nonceCheck = this.nonceIssuer.check(nonce, now);
    if (nonceCheck.state === 'invalid') return fail('Invalid digest nonce');

    const credentials = await this.partners.findForDigest(username);
    if (credentials === null) return fail('Invalid credentials');
    const hash = (text: string): string => createHash(algorithm.hash).update(text).digest('hex');
    let ha1 = algorithm.hash === 'md5' ? credentials.ha1Md5 : credentials.ha1Sha256;
    if (algorithm.session) ha1 = hash(`${ha1}:${nonce}:${cnonce}`);
    const ha2 = hash(`${method}:${uri}`);
    const expected = hash(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`);
    if (!sameText(expected, response.toLowerCase())) return fail('Invalid credentials');

    if (nonceCheck.state === 'stale') return { pass: false, reason: 'Digest nonce expired', stale: true };
    const fresh = await this.counter.advance(nonce, parseInt(nc, 16), nonceCheck.expiresAt - now.getTime());
    if (!fresh) return fail('Digest nonce count already used (replayed request)');
    return { pass: true, credentials };
  }
}

function fail(reason: string): DigestOutcome {
  return { pass: false, reason, stale: false };
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
