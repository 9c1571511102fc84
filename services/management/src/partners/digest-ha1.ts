import { createHash } from 'node:crypto';

export type DigestAlgorithm = 'md5' | 'sha256';

/**
 * RFC 7616 HA1 = H(username ":" realm ":" password). Storing HA1 instead of the password lets the
 * server verify digest responses without being able to recover the password; it is bound to the
 * realm, so changing DIGEST_REALM invalidates every stored credential.
 */
export function digestHa1(
  algorithm: DigestAlgorithm,
  username: string,
  realm: string,
  password: string,
): string {
  return createHash(algorithm).update(`${username}:${realm}:${password}`, 'utf8').digest('hex');
}
