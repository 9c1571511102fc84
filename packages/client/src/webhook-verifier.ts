import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/management';

type Schemas = components['schemas'];

/** A call record event; `data` is the extended call record (docs/webhooks.md, Event catalogue). */
export interface CallWebhookEvent {
  type:
    | 'call.completed'
    | 'call.missed'
    | 'voicemail.new'
    | 'call.outcome'
    | 'call.transcribed'
    | 'call.classified';
  /** When the event happened, ISO 8601 in UTC; the same on every attempt. */
  timestamp: string;
  data: Schemas['CdrExtended'];
}

export interface CustomerCreatedWebhookEvent {
  type: 'customer.created';
  timestamp: string;
  data: Schemas['Customer'];
}

/** An hour whose share of recycled bindings passed the partner's threshold (docs/pool-sizing.md). */
export interface PoolExhaustedWebhookEvent {
  type: 'pool.exhausted';
  timestamp: string;
  data: Schemas['PoolExhausted'];
}

/** The pool's autoscaling bought or released numbers (docs/pool-sizing.md, Autoscaling). */
export interface PoolResizedWebhookEvent {
  type: 'pool.resized';
  timestamp: string;
  data: Schemas['PoolResize'];
}

export interface TestWebhookEvent {
  type: 'webhook.test';
  timestamp: string;
  data: { webhook_id: string; message: string };
}

/** A verified delivery's body, narrowed by `type`. */
export type WebhookEvent =
  | CallWebhookEvent
  | CustomerCreatedWebhookEvent
  | PoolExhaustedWebhookEvent
  | PoolResizedWebhookEvent
  | TestWebhookEvent;

export type WebhookVerificationFailure =
  | 'bad-secret'
  | 'missing-header'
  | 'bad-timestamp'
  | 'timestamp-outside-tolerance'
  | 'bad-signature'
  | 'bad-body';

/** A delivery that must not be trusted; `reason` says which check refused it. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Node's `req.headers`, a fetch `Headers`, or a plain object with any letter case. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from `now`, either way. Default 300 (five minutes). */
  toleranceSeconds?: number;
  /** The receiver's clock. Default the current time. */
  now?: Date;
}

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0)
    throw new WebhookVerificationError('bad-secret', 'the webhook secret is not whsec_ followed by base64');
  return Buffer.from(encoded, 'base64');
}

function header(headers: WebhookHeaders, name: string): string {
  let value: string | readonly string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    const record = headers as Record<string, string | readonly string[] | undefined>;
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  const text = typeof value === 'string' ? value : value?.join(' ');
  if (text === undefined || text.trim() === '')
    throw new WebhookVerificationError('missing-header', `missing header ${name}`);
  return text.trim();
}

/** The `v1,<base64>` signature of a delivery; exported so tests and senders agree on one definition. */
export function signWebhook(
  secret: string,
  id: string,
  timestamp: string,
  rawBody: string | Uint8Array,
): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestamp}.`)
    .update(rawBody)
    .digest('base64');
  return `v1,${mac}`;
}

function matchesOne(expected: Buffer, signatureHeader: string): boolean {
  let matched = false;
  // Every candidate is compared, so the time taken does not tell which one came close.
  for (const candidate of signatureHeader.split(' ')) {
    const comma = candidate.indexOf(',');
    if (comma < 0 || candidate.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(candidate.slice(comma + 1), 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

function parseEvent(rawBody: string | Uint8Array): WebhookEvent {
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('bad-body', 'the body is not JSON');
  }
  const event = body as Partial<Record<'type' | 'timestamp' | 'data', unknown>> | null;
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.type !== 'string' ||
    typeof event.timestamp !== 'string' ||
    typeof event.data !== 'object' ||
    event.data === null
  )
    throw new WebhookVerificationError('bad-body', 'the body is not {type, timestamp, data}');
  return event as WebhookEvent;
}

/**
 * Checks a delivery as docs/webhooks.md describes it and returns its event: the signature over
 * `<webhook-id>.<webhook-timestamp>.<raw body>` (any of the space-separated `v1,` signatures, compared in
 * constant time), then `webhook-timestamp` within `toleranceSeconds` of `now`, and only then the body
 * is parsed. Pass the body exactly as received: parsed and serialised again it is not what was signed.
 * Throws WebhookVerificationError.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const key = secretKey(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError('bad-timestamp', 'webhook-timestamp is not seconds since the epoch');

  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  if (!matchesOne(expected, signatures))
    throw new WebhookVerificationError(
      'bad-signature',
      'no webhook-signature matches the body and the secret',
    );

  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const offBy = Number(timestamp) - nowSeconds;
  if (Math.abs(offBy) > toleranceSeconds)
    throw new WebhookVerificationError(
      'timestamp-outside-tolerance',
      `webhook-timestamp is ${Math.abs(offBy)} s ${offBy < 0 ? 'old' : 'in the future'}, beyond ${toleranceSeconds} s`,
    );
  return parseEvent(rawBody);
}
