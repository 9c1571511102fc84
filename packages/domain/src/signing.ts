import { createHmac, timingSafeEqual } from 'node:crypto';

// Partners sign the exact raw request body with HMAC-SHA1 (40 lowercase hex characters).
const SIGNATURE_PATTERN = /^[0-9a-f]{40}$/;

export function signBody(secret: string, body: Buffer | string): string {
  return createHmac('sha1', secret).update(body).digest('hex');
}

export function verifySignature(
  secret: string,
  body: Buffer | string,
  signature: string | undefined,
): boolean {
  // The format check is on the client's input only, so an early exit leaks nothing about the secret.
  if (signature === undefined || !SIGNATURE_PATTERN.test(signature)) return false;
  const expected = Buffer.from(signBody(secret, body), 'hex');
  const given = Buffer.from(signature, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
