// Typed errors carry their HTTP status so one mapper at the edge can render any of them
// without knowing which layer threw it. Errors only HTTP raises (405, 413, 501)
// live in the services' http layers.

export abstract class TracklineError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;

  // Public, so a subclass whose message is all it takes needs no constructor of its own.
  // `cause`: the fault behind it (a store's error behind a 503), for the log; never shown to a client.
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
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
}

export class ForbiddenError extends TracklineError {
  readonly status = 403;
  readonly code = 'forbidden';
}

export class NotFoundError extends TracklineError {
  readonly status = 404;
  readonly code = 'not_found';

  constructor(readonly what: string) {
    super(`${what} not found`);
  }
}

export class ServiceUnavailableError extends TracklineError {
  readonly status = 503;
  readonly code = 'service_unavailable';
}

export function isTracklineError(e: unknown): e is TracklineError {
  return e instanceof TracklineError;
}
