import type { NextFunction, Request, Response } from 'express';
import { RateLimitedError } from '../http-errors';
import { requestState } from '../request-state';
import type { RateLimitDecision, RateLimiter } from './rate-limiter';

export interface PartnerRateLimitOptions {
  limiter: RateLimiter;
  /** RATE_LIMIT_PER_MINUTE: the limit of a partner without its own; 0 is none. */
  defaultPerMinute: number;
  clock: () => Date;
  /** Counts refusals (`limited`) and requests let through because the limiter could not answer (`unavailable`). */
  count: (result: 'limited' | 'unavailable') => void;
}

/**
 * The per-partner budget, after authentication (docs/partner-api.md, Rate limit): the partner's own
 * limit, else the service default. Every answer to a limited partner's request carries the
 * `RateLimit-Policy` and `RateLimit` fields; past the limit it is a 429 with `Retry-After`. A partner
 * whose limit is 0 has no policy, so nothing is counted and neither field is sent (a client reads
 * the absence as no limit, as the IETF draft has it). When the limiter cannot reach Redis the request is
 * let through, logged and counted: authentication has just passed, which needed Redis for the
 * nonce count a moment ago, so this is a blip, and refusing a partner for the limiter's own
 * failure would turn a guard into an outage.
 */
export function partnerRateLimit(options: PartnerRateLimitOptions) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const partner = requestState(res).partner;
    if (partner === undefined) throw new Error('rate limit reached without an authenticated partner');
    const limit = partner.rateLimitPerMinute ?? options.defaultPerMinute;
    if (limit === 0) {
      next();
      return;
    }
    let decision;
    try {
      decision = await options.limiter.consume(partner.name, limit, options.clock());
    } catch (error) {
      req.log.warn({ err: error }, 'rate limiter unavailable; request let through');
      options.count('unavailable');
      next();
      return;
    }
    res.setHeader('RateLimit-Policy', rateLimitPolicyField(decision));
    res.setHeader('RateLimit', rateLimitField(decision));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.resetSeconds));
      options.count('limited');
      throw new RateLimitedError(decision.limit, decision.resetSeconds);
    }
    next();
  };
}

/** The one policy every partner has, named as docs/partner-api.md shows it. */
const POLICY = '"default"';

/** `RateLimit-Policy`: the quota (`q`) per window of `w` seconds, a structured-field list of one item. */
export function rateLimitPolicyField(decision: RateLimitDecision): string {
  return `${POLICY};q=${decision.limit};w=${decision.windowSeconds}`;
}

/** `RateLimit`: what is left (`r`) and the seconds until the window ends (`t`). */
export function rateLimitField(decision: RateLimitDecision): string {
  return `${POLICY};r=${decision.remaining};t=${decision.resetSeconds}`;
}
