import { createHash, randomBytes } from 'node:crypto';

export type DigestAlgorithm = 'MD5' | 'SHA-256';

/** One `Digest …` challenge of a 401's WWW-Authenticate header. */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  qop: string | undefined;
  algorithm: string;
  opaque: string | undefined;
  stale: boolean;
}

/**
 * The Digest challenges of a WWW-Authenticate header (or several joined by ", ", as Node joins
 * repeated headers), in the server's order.
 */
export function parseDigestChallenges(header: string | string[] | undefined): DigestChallenge[] {
  const values = (Array.isArray(header) ? header : header === undefined ? [] : [header]).flatMap((value) =>
    value.split(/,\s*(?=Digest\s)/i),
  );
  return values
    .filter((value) => /^digest\s/i.test(value))
    .map((value) => {
      const params = new Map<string, string>();
      for (const match of value.matchAll(/([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g))
        params.set(match[1].toLowerCase(), match[2]?.replace(/\\(.)/g, '$1') ?? match[3]);
      return {
        realm: params.get('realm') ?? '',
        nonce: params.get('nonce') ?? '',
        qop: params.get('qop'),
        algorithm: params.get('algorithm') ?? 'MD5',
        opaque: params.get('opaque'),
        stale: params.get('stale')?.toLowerCase() === 'true',
      };
    });
}

export interface DigestResponseInput {
  username: string;
  password: string;
  challenge: DigestChallenge;
  method: string;
  /** The request target exactly as it goes on the request line (path and query). */
  uri: string;
  nc: number;
  cnonce: string;
}

/** The Authorization header value of RFC 7616 with qop=auth, for MD5 or SHA-256 (and their -sess forms). */
export function digestAuthorization(input: DigestResponseInput): string {
  const algorithm = input.challenge.algorithm.toUpperCase();
  const hashName = algorithm.startsWith('SHA-256') ? 'sha256' : 'md5';
  const hash = (text: string): string => createHash(hashName).update(text, 'utf8').digest('hex');
  const nc = input.nc.toString(16).padStart(8, '0');
  let ha1 = hash(`${input.username}:${input.challenge.realm}:${input.password}`);
  if (algorithm.endsWith('-SESS')) ha1 = hash(`${ha1}:${input.challenge.nonce}:${input.cnonce}`);
  const ha2 = hash(`${input.method}:${input.uri}`);
  const response = hash(`${ha1}:${input.challenge.nonce}:${nc}:${input.cnonce}:auth:${ha2}`);
  const fields = [
    `username="${quote(input.username)}"`,
    `realm="${quote(input.challenge.realm)}"`,
    `nonce="${quote(input.challenge.nonce)}"`,
    `uri="${quote(input.uri)}"`,
    `algorithm=${input.challenge.algorithm}`,
    `qop=auth`,
    `nc=${nc}`,
    `cnonce="${quote(input.cnonce)}"`,
    `response="${response}"`,
  ];
  if (input.challenge.opaque !== undefined) fields.push(`opaque="${quote(input.challenge.opaque)}"`);
  return `Digest ${fields.join(', ')}`;
}

function quote(text: string): string {
  return text.replace(/(["\\])/g, '\\$1');
}

/**
 * A client's digest state across requests: the nonce the server last handed out and the count of
 * its uses. Each request takes the next `nc` on the same nonce (no extra round trip); a 401 gives
 * a new challenge to adopt, with `nc` starting over.
 */
export class DigestSession {
  private challenge: DigestChallenge | undefined;
  private nc = 0;

  constructor(
    private readonly username: string,
    private readonly password: string,
    private readonly algorithm: DigestAlgorithm,
  ) {}

  /** Whether a nonce is held, so a request can carry credentials at once. */
  get ready(): boolean {
    return this.challenge !== undefined;
  }

  /**
   * Takes the challenge for this session's algorithm from a 401's header; false when there is
   * none (the server does not speak the algorithm, or the 401 was not a digest challenge).
   */
  adopt(header: string | string[] | undefined): boolean {
    const challenge = parseDigestChallenges(header).find(
      (candidate) =>
        candidate.algorithm.toUpperCase() === this.algorithm &&
        candidate.qop?.split(/\s*,\s*/).includes('auth'),
    );
    if (challenge === undefined) return false;
    this.challenge = challenge;
    this.nc = 0;
    return true;
  }

  /** The Authorization header of the next request on the held nonce. */
  authorize(method: string, uri: string): string {
    if (this.challenge === undefined) throw new Error('no digest challenge adopted yet');
    this.nc += 1;
    return digestAuthorization({
      username: this.username,
      password: this.password,
      challenge: this.challenge,
      method,
      uri,
      nc: this.nc,
      cnonce: randomBytes(16).toString('hex'),
    });
  }
}
