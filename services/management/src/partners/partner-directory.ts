import type { AuthenticatedPartner } from '../http/route-definition';

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

/** The port the HTTP layer's authentication uses; PartnersService implements it. */
export interface PartnerDirectory {
  /** null when no partner has this digest username. */
  findForDigest(username: string): Promise<DigestCredentials | null>;
}
