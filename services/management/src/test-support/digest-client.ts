import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { rawRequest, type HttpResult, type RawRequest } from './https-request';

export interface Challenge {
  realm: string;
  nonce: string;
  qop?: string;
  algorithm: string;
  stale: boolean;
}

/** The Digest challenges of a 401, in the order the server sent them. */
export function parseChallenges(headers: IncomingHttpHeaders): Challenge[] {
  const raw = headers['www-authenticate'];
  // Node's client joins repeated WWW-Authenticate headers with ", "; split them again before each scheme.
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) =>
    value.split(/,\s*(?=Digest\s)/i),
  );
  return values
    .filter((value) => /^digest\s/i.test(value))
    .map((value) => {
      const params: Record<string, string> = {};
      for (const match of value.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g))
        params[match[1]] = match[2] ?? match[3];
      return {
        realm: params.realm,
        nonce: params.nonce,
        qop: params.qop,
        algorithm: params.algorithm ?? 'MD5',
        stale: params.stale === 'true',
      };
    });
}

export interface AuthorizationInput {
  username: string;
  password: string;
  challenge: Challenge;
  method: string;
  uri: string;
  nc: number;
  cnonce?: string;
  /** Leave qop out, as RFC 2069 clients do. */
  withoutQop?: boolean;
}

/** The Authorization header `curl --digest` sends (same fields, order and encodings). */
export function digestAuthorization(input: AuthorizationInput): string {
  const algorithm = input.challenge.algorithm.toUpperCase();
  const hash = (text: string): string =>
    createHash(algorithm.startsWith('SHA-256') ? 'sha256' : 'md5')
      .update(text)
      .digest('hex');
  const nc = input.nc.toString(16).padStart(8, '0');
  const cnonce = input.cnonce ?? randomBytes(16).toString('base64');
  const ha1 = hash(`${input.username}:${input.challenge.realm}:${input.password}`);
  const ha2 = hash(`${input.method}:${input.uri}`);
  if (input.withoutQop) {
    const response = hash(`${ha1}:${input.challenge.nonce}:${ha2}`);
    return `Digest username="${input.username}", realm="${input.challenge.realm}", nonce="${input.challenge.nonce}", uri="${input.uri}", response="${response}", algorithm=${input.challenge.algorithm}`;
  }
  const response = hash(`${ha1}:${input.challenge.nonce}:${nc}:${cnonce}:auth:${ha2}`);
  return (
    `Digest username="${input.username}", realm="${input.challenge.realm}", nonce="${input.challenge.nonce}", ` +
    `uri="${input.uri}", cnonce="${cnonce}", nc=${nc}, qop=auth, response="${response}", algorithm=${input.challenge.algorithm}`
  );
}

export interface DigestRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A scripted partner client that behaves like `curl --digest`: it sends the request without
 * credentials, takes the first challenge with the algorithm it wants from the 401, and sends the
 * request again with nc=00000001 and a fresh cnonce. Later requests reuse the nonce with a growing
 * nc, as a keep-alive curl session does, and start over when the server says the nonce is stale.
 */
export class DigestClient {
  private challenge: Challenge | undefined;
  private nc = 0;
  /** The Authorization header of the last request, for replay tests. */
  lastAuthorization: string | undefined;

  constructor(
    private readonly port: number,
    private readonly username: string,
    private readonly password: string,
    private readonly algorithm: 'MD5' | 'SHA-256' = 'MD5',
  ) {}

  async request(input: DigestRequest): Promise<HttpResult> {
    if (this.challenge === undefined) {
      const first = await this.send(input, undefined);
      if (first.status !== 401) return first;
      this.adopt(first);
    }
    let result = await this.send(input, this.authorize(input));
    if (result.status === 401 && parseChallenges(result.headers).some((challenge) => challenge.stale)) {
      this.adopt(result);
      result = await this.send(input, this.authorize(input));
    }
    return result;
  }

  private adopt(result: HttpResult): void {
    const challenge = parseChallenges(result.headers).find(
      (candidate) => candidate.algorithm === this.algorithm,
    );
    if (challenge === undefined)
      throw new Error(`no ${this.algorithm} challenge in ${JSON.stringify(result.headers)}`);
    this.challenge = challenge;
    this.nc = 0;
  }

  private authorize(input: DigestRequest): string {
    this.nc += 1;
    this.lastAuthorization = digestAuthorization({
      username: this.username,
      password: this.password,
      challenge: this.challenge!,
      method: input.method,
      uri: input.path,
      nc: this.nc,
    });
    return this.lastAuthorization;
  }

  private send(input: DigestRequest, authorization: string | undefined): Promise<HttpResult> {
    const headers: Record<string, string> = { ...(input.headers ?? {}) };
    if (authorization !== undefined) headers.Authorization = authorization;
    const request: RawRequest = {
      port: this.port,
      method: input.method,
      path: input.path,
      headers,
      body: input.body,
    };
    return rawRequest(request);
  }
}

/** GET /miscellaneous/ping by a fresh `curl --digest` session: challenge, then one authorized request. */
export function pingAs(
  port: number,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return new DigestClient(port, username, password).request({
    method: 'GET',
    path: '/miscellaneous/ping',
    headers,
  });
}
