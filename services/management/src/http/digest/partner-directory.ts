import type { AuthenticatedPartner } from '../route-definition';

/** What digest authentication needs to check one request. */
export interface DigestCredentials {
  partner: AuthenticatedPartner;
  /** hex MD5(username:realm:password) */
  ha1Md5: string;
  /** hex SHA-256(username:realm:password) */
  ha1Sha256: string;
  /** Canonical CIDRs (a single address is /32 or /128); empty means no address is allowed. */
  allowIps: string[];
}

/**
 * The port digest authentication declares for its partner lookups; the partners feature implements
 * it (PartnersService), composition hands it over (docs/architecture.md, Floors).
 */
export interface PartnerDirectory {
  /** null when no partner has this digest username. */
  findForDigest(username: string): Promise<DigestCredentials | null>;
}
