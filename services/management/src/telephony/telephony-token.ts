import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares `Authorization: Bearer <token>` with TELEPHONY_TOKEN in constant time (SPEC §5). Both
 * sides are hashed first, so the time taken says nothing about the length or a prefix of the token.
 * With no token configured nothing matches: the telephony endpoints stay closed.
 */
export function telephonyTokenMatches(header: string | undefined, expected: string | undefined): boolean {
  if (header === undefined || expected === undefined || expected === '') return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (match === null) return false;
  const given = createHash('sha256').update(match[1]!).digest();
  const wanted = createHash('sha256').update(expected).digest();
  return timingSafeEqual(given, wanted);
}
