import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface TransportOptions {
  /** PEM of a CA (or the self-signed certificate) to trust besides the system's. */
  ca?: string | Buffer;
  /** false accepts any certificate; for local development against a self-signed one only. */
  rejectUnauthorized?: boolean;
  /** Milliseconds a request may take, answer included. Default 30 000. */
  timeoutMs?: number;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * HTTP(S) on Node's own client with a keep-alive agent: a partner's server talks to the API all day,
 * and a reused connection also keeps the digest nonce's counter in step on the same replica.
 */
export class HttpTransport {
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly secure: boolean;

  constructor(
    private readonly origin: URL,
    private readonly options: TransportOptions = {},
  ) {
    this.secure = origin.protocol === 'https:';
    this.agent = this.secure
      ? new HttpsAgent({
          keepAlive: true,
          ca: options.ca,
          rejectUnauthorized: options.rejectUnauthorized ?? true,
        })
      : new HttpAgent({ keepAlive: true });
  }

  send(method: string, target: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
    const send = this.secure ? httpsRequest : httpRequest;
    const all: Record<string, string | number> = { Accept: 'application/json', ...headers };
    if (body !== undefined) all['Content-Length'] = Buffer.byteLength(body);
    return new Promise((resolve, reject) => {
      const req = send(
        {
          host: this.origin.hostname.replace(/^\[|\]$/g, ''),
          port: this.origin.port || (this.secure ? 443 : 80),
          method,
          path: target,
          headers: all,
          agent: this.agent,
          timeout: this.options.timeoutMs ?? 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${target}: no answer within the timeout`)));
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
