import { TracklineError, UnauthorizedError } from '@trackline/domain';

/** A 401 that carries fresh challenges for the WWW-Authenticate headers (digest or bearer). */
export class AuthenticationError extends UnauthorizedError {
  constructor(
    message: string,
    readonly challenges: string[],
  ) {
    super(message);
  }
}

/** A resource that exists, asked with a method it does not take; `allow` fills the Allow header. */
export class MethodNotAllowedError extends TracklineError {
  readonly status = 405;
  readonly code = 'method_not_allowed';
  readonly allow: string[];

  constructor(allow: string[]) {
    super(`Method not allowed; allowed: ${allow.join(', ')}`);
    // Copied so a caller mutating its array cannot change the Allow header afterwards.
    this.allow = [...allow];
  }
}

/** A method no resource of the API implements (PATCH, OPTIONS, …). */
export class NotImplementedError extends TracklineError {
  readonly status = 501;
  readonly code = 'not_implemented';
}

/** A partner over its request budget; `retryAfterSeconds` fills the Retry-After header. */
export class RateLimitedError extends TracklineError {
  readonly status = 429;
  readonly code = 'rate_limited';

  constructor(
    limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s`);
  }
}
