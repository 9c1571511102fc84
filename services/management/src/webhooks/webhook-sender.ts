import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookConnections } from './webhook-connections';
import { resolveWebhookTarget, type HostResolver, type InsecureHosts } from './webhook-url';

/** One attempt: the signed request as the receiver gets it. */
export interface WebhookAttempt {
  url: string;
  /** `webhook-id`: the same on every attempt of a delivery. */
  messageId: string;
  /** `webhook-timestamp`: when this attempt is made. */
  timestamp: Date;
  body: string;
  secret: string;
}

export interface WebhookAnswer {
  statusCode: number;
  /** At most `maxResponseBytes` of the body, for the deliveries list. */
  body: string;
  /** Seconds, from a `Retry-After` header given as a number. */
  retryAfterSeconds: number | null;
}

export interface WebhookSenderSettings {
  insecureHosts: InsecureHosts;
  resolve: HostResolver;
  /** The whole attempt, from resolving the host to the last byte read. */
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Kept connections a receiver may have closed just as a request went out on them, tried in turn. */
const STALE_CONNECTION_RETRIES = 4;

/** The request failed on a kept connection before any answer: the receiver had closed it. */
class StaleConnectionError extends Error {}

/**
 * Sends one signed attempt (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`). The host is resolved and every address checked right before connecting, and
 * the connection goes to exactly the addresses checked, so a name re-pointed at a private address
 * after creation (DNS rebinding) gets nowhere; a kept connection is reused only for the same
 * checked addresses (webhook-connections.ts). Redirects are not followed (a 3xx is a failed
 * attempt), and the answer is read to at most a few KiB.
 */
export class WebhookSender {
  private readonly connections = new WebhookConnections();

  constructor(private readonly settings: WebhookSenderSettings) {}

  async send(attempt: WebhookAttempt, signal?: AbortSignal): Promise<WebhookAnswer> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    try {
      const url = new URL(attempt.url);
      const addresses = await resolveWebhookTarget(url, this.settings.insecureHosts, this.settings.resolve);
      combined.throwIfAborted();
      const signature = new Webhook(attempt.secret).sign(attempt.messageId, attempt.timestamp, attempt.body);
      for (let retry = 0; ; retry++) {
        try {
          return await this.post(url, addresses, attempt, signature, combined);
        } catch (error) {
          // Sent again on another connection: the receiver got nothing on the closed one (or, had
          // it read the request, gets it twice with the same webhook-id, as on any retry).
          if (!(error instanceof StaleConnectionError) || retry === STALE_CONNECTION_RETRIES)
            throw error instanceof StaleConnectionError ? error.cause : error;
        }
      }
    } catch (error) {
      if (timeout.aborted) throw new Error(`no answer within ${this.settings.timeoutMs} ms`);
      throw error;
    }
  }

  /** Closes the kept connections (the worker stops). */
  close(): void {
    this.connections.close();
  }

  private post(
    url: URL,
    addresses: string[],
    attempt: WebhookAttempt,
    signature: string,
    signal: AbortSignal,
  ): Promise<WebhookAnswer> {
    const body = Buffer.from(attempt.body, 'utf8');
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<WebhookAnswer>((resolve, reject) => {
      const request = send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'Trackline-Webhooks/1.0',
          'webhook-id': attempt.messageId,
          'webhook-timestamp': String(Math.floor(attempt.timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        // An IP literal is connected to as it is (and was checked as it is); a name only through
        // the addresses just checked.
        ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 ? { lookup: pinnedLookup(addresses) } : {}),
        agent: this.connections.agentFor(url, addresses),
        signal,
      });
      let answered = false;
      request.on('error', (error) =>
        reject(
          request.reusedSocket && !answered && !signal.aborted
            ? new StaleConnectionError('kept connection closed by the receiver', { cause: error })
            : error,
        ),
      );
      request.on('response', (response) => {
        answered = true;
        readBounded(response, this.settings.maxResponseBytes).then(
          (text) =>
            resolve({
              statusCode: response.statusCode ?? 0,
              body: text,
              retryAfterSeconds: retryAfter(response.headers['retry-after']),
            }),
          reject,
        );
      });
      request.end(body);
    });
  }
}

/** A lookup that answers with the checked addresses only, in the shape the caller asked for. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all === true) {
      (callback as (error: null, addresses: typeof entries) => void)(null, entries);
      return;
    }
    const first = entries[0]!;
    callback(null, first.address, first.family);
  };
}

/** The first `limit` bytes of the answer; the connection is dropped rather than read further. */
function readBounded(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = () => resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) {
        response.destroy();
        finish();
      }
    });
    response.on('end', finish);
    response.on('error', (error) => (length >= limit ? finish() : reject(error)));
  });
}

function retryAfter(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,9}$/.test(value.trim())) return null;
  return Number(value.trim());
}
