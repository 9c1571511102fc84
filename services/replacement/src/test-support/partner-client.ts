import { createHmac } from 'node:crypto';
import { checkReplacementAnswer } from './api-contract';

/**
 * A partner's server as the seed describes it, with its own HMAC-SHA1 signer (deliberately not the
 * service's code), so tests see what a partner sees.
 */
export interface PartnerCall {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export interface SendOptions {
  secret: string;
  /** Where the signature goes; 'none' sends none. */
  signIn?: 'query' | 'header' | 'none';
  /** Send X-HTTP-STATUSES to get real HTTP statuses. */
  httpStatuses?: boolean;
  path?: string;
  /** Overrides the computed signature. */
  signature?: string;
}

export function partnerSign(secret: string, body: string | Buffer): string {
  return createHmac('sha1', secret).update(body).digest('hex');
}

export async function sendReplacementRequest(
  baseUrl: string,
  body: string | Buffer | Record<string, unknown>,
  options: SendOptions,
): Promise<PartnerCall> {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const signature = options.signature ?? partnerSign(options.secret, raw);
  const signIn = options.signIn ?? 'query';
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (signIn === 'header') headers['X-SIGN'] = signature;
  if (options.httpStatuses === true) headers['X-HTTP-STATUSES'] = '1';
  const path = options.path ?? '/dynamic-numbers';
  const url = signIn === 'query' ? `${baseUrl}${path}?sign=${signature}` : `${baseUrl}${path}`;
  const response = await fetch(url, { method: 'POST', headers, body: raw });
  const text = await response.text();
  checkReplacementAnswer({
    method: 'POST',
    target: url.slice(baseUrl.length),
    requestHeaders: headers,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text,
  });
  return {
    status: response.status,
    body: JSON.parse(text) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** A web request as a browser script would send it, for `numbers`, with overrides. */
export function webRequest(
  advId: string,
  numbers: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    advId,
    fullUrl: 'https://www.example.no/ad/1234',
    trackingId: 'visitor-1',
    numbers,
    type: 'web',
    fullReferrer: 'https://www.google.com/',
    parameters: { custnr: 'C-1', custname: 'Kari Nordmann', custemail: 'kari@example.no', adId: '1234' },
    userAgent: 'Mozilla/5.0',
    requestIpAddress: '203.0.113.0',
    sessionId: '',
    ...overrides,
  };
}

export function appRequest(advId: string, numbers: string, trackingId: string): Record<string, unknown> {
  return {
    advId,
    fullUrl: 'app://example/ad/1234',
    trackingId,
    numbers,
    type: 'app',
    fullReferrer: '',
    parameters: { adId: '1234' },
  };
}
