import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

export interface ProbeResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface ProbeRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request; https URLs accept the launcher's self-signed certificate, as `curl -k` does. */
export function probe(url: string, request: ProbeRequest = {}): Promise<ProbeResult> {
  const send = url.startsWith('https:') ? https.request : http.request;
  const headers: Record<string, string | number> = { ...(request.headers ?? {}) };
  if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      { method: request.method ?? 'GET', headers, rejectUnauthorized: false, timeout: 10_000, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.once('timeout', () => outgoing.destroy(new Error(`${url}: timed out`)));
    outgoing.once('error', reject);
    outgoing.end(request.body);
  });
}

/** A GET with HTTP Digest authentication (see digestRequest). */
export function digestGet(url: string, username: string, password: string): Promise<ProbeResult> {
  return digestRequest(url, username, password);
}

/**
 * A request with HTTP Digest authentication the way `curl --digest` does it: ask without
 * credentials, answer the MD5 challenge of the 401 with qop=auth, nc=00000001 and a fresh cnonce.
 * The digest's uri is the request target, query string included.
 */
export async function digestRequest(
  url: string,
  username: string,
  password: string,
  request: ProbeRequest = {},
): Promise<ProbeResult> {
  const method = request.method ?? 'GET';
  const first = await probe(url, request);
  if (first.status !== 401) return first;
  const challenge = md5Challenge(first.headers);
  const target = new URL(url);
  const uri = `${target.pathname}${target.search}`;
  const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
  const cnonce = randomBytes(16).toString('hex');
  const nc = '00000001';
  const ha1 = md5(`${username}:${challenge.realm}:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:auth:${ha2}`);
  const authorization =
    `Digest username="${username}", realm="${challenge.realm}", nonce="${challenge.nonce}", uri="${uri}", ` +
    `cnonce="${cnonce}", nc=${nc}, qop=auth, response="${response}", algorithm=MD5`;
  return probe(url, { ...request, headers: { ...(request.headers ?? {}), Authorization: authorization } });
}

function md5Challenge(headers: IncomingHttpHeaders): { realm: string; nonce: string } {
  const raw = headers['www-authenticate'];
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) =>
    value.split(/,\s*(?=Digest\s)/i),
  );
  for (const value of values) {
    if (!/^digest\s/i.test(value)) continue;
    const params: Record<string, string> = {};
    for (const match of value.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g))
      params[match[1]] = match[2] ?? match[3];
    if (
      (params.algorithm ?? 'MD5').toUpperCase() === 'MD5' &&
      params.realm !== undefined &&
      params.nonce !== undefined
    )
      return { realm: params.realm, nonce: params.nonce };
  }
  throw new Error(`no MD5 Digest challenge in ${JSON.stringify(raw)}`);
}
