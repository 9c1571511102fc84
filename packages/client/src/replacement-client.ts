import { createHmac } from 'node:crypto';
import { errorMessage, TracklineApiError } from './errors';
import type { components } from './generated/replacement';

export type ReplacementRequest = components['schemas']['ReplacementRequest'];
export type ReplacementSuccess = components['schemas']['ReplacementSuccess'];

export interface ReplacementClientOptions {
  /** The service address (`{dynamic_numbers_url}` of the seed), e.g. `https://dni.example.com/dynamic-numbers`. */
  url: string;
  /** The signing secret the operator shared with the partner. */
  signingSecret: string;
  /** Milliseconds including the network, after which the caller should show its own number. Default 1500. */
  timeoutMs?: number;
}

/** The HMAC-SHA1 signature of the exact body bytes, 40 lowercase hex characters. */
export function signReplacementBody(signingSecret: string, body: string | Buffer): string {
  return createHmac('sha1', signingSecret).update(body).digest('hex');
}

/**
 * The number replacement API with the signature done for the caller: the request is serialised
 * once, signed over exactly those bytes and sent with `X-SIGN`, and `X-HTTP-STATUSES` asks for
 * real statuses, so a refusal is a TracklineApiError with the service's text (`Missing parameter:
 * fullUrl`) instead of a 200 to inspect. On a timeout or an error the seed's guidance holds: show
 * or dial the page's own number.
 */
export class ReplacementClient {
  constructor(private readonly options: ReplacementClientOptions) {}

  async replaceNumbers(request: ReplacementRequest): Promise<ReplacementSuccess> {
    const body = JSON.stringify(request);
    const response = await fetch(this.options.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-SIGN': signReplacementBody(this.options.signingSecret, body),
        'X-HTTP-STATUSES': '1',
      },
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 1500),
    });
    const text = await response.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = text;
    }
    const success = (answer as { success?: unknown } | null)?.success === true;
    if (!response.ok || !success)
      throw new TracklineApiError(
        response.status,
        errorMessage(response.status, answer),
        answer,
        undefined,
        undefined,
      );
    return answer as ReplacementSuccess;
  }
}
