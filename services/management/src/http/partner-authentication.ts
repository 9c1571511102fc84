import type { NextFunction, Request, Response } from 'express';
import { AddressList } from './address-list';
import type { DigestAuthenticator } from './digest/digest-authenticator';
import { AuthenticationError } from './http-errors';
import { requestState } from './request-state';

/** What partner authentication needs of the digest authenticator (route tests give a fake). */
export type PartnerAuthenticator = Pick<DigestAuthenticator, 'authenticate' | 'challenges'>;

/**
 * Digest authentication, then the partner's IP allowlist (seed: Authentication 3–4). Both
 * failures are 401 with an explanation and a fresh challenge, so a client whose address changed
 * learns why instead of retrying its password.
 */
export function partnerAuthentication(authenticator: PartnerAuthenticator, clock: () => Date) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const now = clock();
    const state = requestState(res);
    const outcome = await authenticator.authenticate(req, req.method, req.originalUrl, now);
    if (!outcome.pass) {
      throw new AuthenticationError(outcome.reason, authenticator.challenges(now, outcome.stale));
    }
    const allowed = AddressList.parse(outcome.credentials.allowIps);
    if (!allowed.contains(state.clientAddress)) {
      throw new AuthenticationError(
        `Client address ${state.clientAddress} is not in the IP allowlist of this account; ask the operator to add it`,
        authenticator.challenges(now, false),
      );
    }
    state.partner = outcome.credentials.partner;
    req.log = req.log.child({ partner: outcome.credentials.partner.name });
    next();
  };
}
