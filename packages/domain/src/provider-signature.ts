import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** One form field as it arrived, in arrival order; a name may repeat. */
export type FormField = readonly [name: string, value: string];

/**
 * The signature Twilio (X-Twilio-Signature) and SignalWire (X-SignalWire-Signature) put on every
 * webhook: base64 HMAC-SHA1 under the account's auth token (SignalWire: signing key) of the full
 * public URL of the request, query string included, followed by each POST field sorted by name,
 * name then value. Fields with the same name are taken in value order, as the providers' own
 * validators do. docs/telephony.md describes where the URL comes from.
 */
export function providerSignature(authToken: string, url: string, fields: readonly FormField[]): string {
  const sorted = [...fields].sort(([nameA, valueA], [nameB, valueB]) =>
    nameA === nameB ? compare(valueA, valueB) : compare(nameA, nameB),
  );
  const hmac = createHmac('sha1', authToken);
  hmac.update(url, 'utf8');
  for (const [name, value] of sorted) hmac.update(name + value, 'utf8');
  return hmac.digest('base64');
}

/**
 * True when `given` is the signature of this request. Both sides are hashed before the constant-time
 * comparison, so neither a length nor a prefix leaks through timing. No token configured, or no
 * signature sent, never matches.
 */
export function providerSignatureMatches(
  authToken: string,
  url: string,
  fields: readonly FormField[],
  given: string | undefined,
): boolean {
  if (authToken === '' || given === undefined || given === '') return false;
  const expected = providerSignature(authToken, url, fields);
  return timingSafeEqual(digest(expected), digest(given));
}

/** Code-unit order, as the providers sort (not locale order). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Signed, expiring links to a greeting's audio (`GET /telephony/greetings/<id>/audio`), made by
 * replacement inside `<Play>` and checked by management; both hold the auth token. The key is
 * derived from it under its own label, so a link signature can never pass for a webhook signature.
 */
export function greetingAudioSignature(authToken: string, greetingId: string, expiresAt: number): string {
  const key = createHmac('sha256', authToken).update('trackline greeting audio link').digest();
  return createHmac('sha256', key).update(`${greetingId}:${expiresAt}`).digest('base64url');
}

export function greetingAudioSignatureMatches(
  authToken: string,
  greetingId: string,
  expiresAt: number,
  given: string,
  now: number,
): boolean {
  if (authToken === '' || !Number.isSafeInteger(expiresAt) || expiresAt * 1000 <= now) return false;
  return timingSafeEqual(digest(greetingAudioSignature(authToken, greetingId, expiresAt)), digest(given));
}
