import { request as httpRequest, type Agent as HttpAgent, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { checkManagementAnswer } from './api-contract';

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body as received: audio is not text. */
  bytes: Buffer;
  json(): unknown;
}

export interface RawRequest {
  port: number;
  method: string;
  /** The request target exactly as it goes on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Plain HTTP instead of TLS, to the same port. */
  plain?: boolean;
  agent?: HttpAgent | HttpsAgent;
  host?: string;
  /**
   * Hold the answer against docs/openapi/management.yaml (default). Off only for requests that are
   * not the API's: HTTP the service refuses before it is a request (malformed framing).
   */
  checkContract?: boolean;
}

/** One request over real HTTPS (self-signed certificate accepted) or plain HTTP. */
export function rawRequest(options: RawRequest): Promise<HttpResult> {
  const send = options.plain ? httpRequest : httpsRequest;
  const headers: Record<string, string | number> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['Content-Length'] = Buffer.byteLength(options.body);
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: options.host ?? '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers,
        agent: options.agent,
        rejectUnauthorized: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          if (options.checkContract !== false) {
            try {
              checkManagementAnswer({
                method: options.method,
                target: options.path,
                requestHeaders: headers,
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: text,
              });
            } catch (error) {
              reject(error as Error);
              return;
            }
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            bytes,
            json: () => JSON.parse(text) as unknown,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
