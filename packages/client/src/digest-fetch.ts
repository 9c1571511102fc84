import type { IncomingHttpHeaders } from 'node:http';
import { DigestSession, type DigestAlgorithm } from './digest';
import { HttpTransport, type RawAnswer, type TransportOptions } from './http-transport';

export interface DigestFetchOptions extends TransportOptions {
  username: string;
  password: string;
  algorithm: DigestAlgorithm;
}

/** A `fetch` that authenticates with HTTP digest; `close` ends its kept-alive connections. */
export interface DigestFetch {
  fetch: (request: Request) => Promise<Response>;
  close: () => void;
}

/**
 * The `fetch` openapi-fetch is given: each Request goes over one keep-alive Node HTTP(S) agent with
 * digest credentials (RFC 7616, qop=auth, MD5 or SHA-256). The first request learns a nonce from
 * the server's 401; every later one reuses it with a growing `nc` (no extra round trip), and a 401
 * carrying a fresh challenge — an expired nonce (`stale=true`), or a count overtaken by a concurrent
 * request — is retried once on the new nonce. Node's own agent rather than the global fetch, so a
 * partner can pass the CA of its server (`ca`) and connections stay with one replica.
 */
export function createDigestFetch(origin: URL, options: DigestFetchOptions): DigestFetch {
  const transport = new HttpTransport(origin, options);
  const session = new DigestSession(options.username, options.password, options.algorithm);

  const send = (method: string, target: string, headers: Record<string, string>, body?: string) =>
    // The digest covers the request target exactly as it goes on the request line.
    transport.send(method, target, { ...headers, Authorization: session.authorize(method, target) }, body);

  async function authenticated(
    method: string,
    target: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<RawAnswer> {
    if (!session.ready) {
      const first = await transport.send(method, target, headers, body);
      if (first.status !== 401 || !session.adopt(first.headers['www-authenticate'])) return first;
    }
    const answer = await send(method, target, headers, body);
    if (answer.status === 401 && session.adopt(answer.headers['www-authenticate']))
      return send(method, target, headers, body);
    return answer;
  }

  return {
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const body = request.body === null ? undefined : await request.text();
      const answer = await authenticated(request.method, `${url.pathname}${url.search}`, headers, body);
      return toResponse(answer);
    },
    close: () => transport.close(),
  };
}

/** Statuses whose answers have no body; a fetch Response refuses one for them. */
const NO_BODY = new Set([204, 205, 304]);

function toResponse(answer: RawAnswer): Response {
  return new Response(NO_BODY.has(answer.status) ? null : answer.text, {
    status: answer.status,
    headers: toHeaders(answer.headers),
  });
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
