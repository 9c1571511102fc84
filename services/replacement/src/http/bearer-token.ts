import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares `Authorization: Bearer <token>` with the configured token in constant time. Both sides
 * are hashed first so the comparison takes the same time whatever the length of the guess.
 */
export function bearerTokenMatches(header: string | undefined, expected: string): boolean {
  if (header === undefined || expected === '') return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) return false;
  const given = createHash('sha256').update(match[1]!).digest();
  const wanted = createHash('sha256').update(expected).digest();
  return timingSafeEqual(given, wanted);
}
