// Typed errors carry their HTTP status so one mapper at the edge can render any of them
// without knowing which layer threw it.

export abstract class TracklineError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;

  protected constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends TracklineError {
  readonly status = 400;
  readonly code = 'validation_failed';

  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

export class UnauthorizedError extends TracklineError {
  readonly status = 401;
  readonly code = 'unauthorized';

  constructor(message: string) {
    super(message);
  }
}

export class ForbiddenError extends TracklineError {
  readonly status = 403;
  readonly code = 'forbidden';

  constructor(message: string) {
    super(message);
  }
}

export class NotFoundError extends TracklineError {
  readonly status = 404;
  readonly code = 'not_found';

  constructor(readonly what: string) {
    super(`${what} not found`);
  }
}

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

export class ConflictError extends TracklineError {
  readonly status = 409;
  readonly code = 'conflict';

  constructor(message: string) {
    super(message);
  }
}

export class PayloadTooLargeError extends TracklineError {
  readonly status = 413;
  readonly code = 'payload_too_large';

  constructor(message: string) {
    super(message);
  }
}

export class NotImplementedError extends TracklineError {
  readonly status = 501;
  readonly code = 'not_implemented';

  constructor(message: string) {
    super(message);
  }
}

export class ServiceUnavailableError extends TracklineError {
  readonly status = 503;
  readonly code = 'service_unavailable';

  constructor(message: string) {
    super(message);
  }
}

export function isTracklineError(e: unknown): e is TracklineError {
  return e instanceof TracklineError;
}
