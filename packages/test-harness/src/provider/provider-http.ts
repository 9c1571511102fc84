import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * How the providers sign a webhook, written here independently of the services' own check, so a
 * test compares two implementations: base64 HMAC-SHA1 under the auth token of the URL followed by
 * every POST field sorted by name, name then value.
 */
export function providerSign(authToken: string, url: string, fields: readonly [string, string][]): string {
  const sorted = [...fields].sort((a, b) => (a[0] === b[0] ? cmp(a[1], b[1]) : cmp(a[0], b[0])));
  return createHmac('sha1', authToken)
    .update(url + sorted.map(([name, value]) => name + value).join(''))
    .digest('base64');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface ProviderResponse {
  status: number;
  contentType: string;
  body: Buffer;
  text: string;
}

/** Form encoding as the providers send it: `application/x-www-form-urlencoded`, spaces as `+`. */
export function formEncode(fields: readonly [string, string][]): string {
  return new URLSearchParams(fields as [string, string][]).toString();
}

/**
 * One HTTP request to a service. `publicUrl` is what the provider believes it calls (and signs);
 * `targetFor` maps it to where the service really listens in the test. HTTPS to a test service's
 * self-signed certificate is accepted.
 */
export function providerRequest(options: {
  method: 'GET' | 'POST';
  publicUrl: string;
  targetFor: (publicUrl: string) => string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<ProviderResponse> {
  const target = new URL(options.targetFor(options.publicUrl));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: options.method,
        headers: {
          ...(options.headers ?? {}),
          ...(body === undefined ? {} : { 'Content-Length': String(body.length) }),
        },
        rejectUnauthorized: false,
        // No keep-alive: each webhook on its own connection, as the provider sends them; nothing lingers.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const all = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: all,
            text: all.toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
