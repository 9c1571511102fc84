import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Compares `Authorization: Bearer <token>` with a configured token in constant time (the switch's
 * TELEPHONY_TOKEN, docs/switch.md). Both sides are hashed first, so the time taken says nothing about the
 * length or a prefix of the token. With no token configured nothing matches: the endpoints stay closed.
 */
export function bearerTokenMatches(header: string | undefined, expected: string | undefined): boolean {
  if (header === undefined || expected === undefined || expected === '') return false;
  const match = BEARER.exec(header);
  if (match === null) return false;
  const given = createHash('sha256').update(match[1]!).digest();
  const wanted = createHash('sha256').update(expected).digest();
  return timingSafeEqual(given, wanted);
}
