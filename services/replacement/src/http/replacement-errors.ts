import { TracklineError } from '@trackline/domain';

/** A request the seed's contract refuses with 400; the message is the exact `error` text partners see. */
export class InvalidRequestError extends TracklineError {
  readonly status = 400;
  readonly code = 'invalid_request';

  static missing(name: string): InvalidRequestError {
    return new InvalidRequestError(`Missing parameter: ${name}`);
  }

  static invalid(name: string, rule: string): InvalidRequestError {
    return new InvalidRequestError(`Invalid parameter: ${name} (${rule})`);
  }
}

/**
 * The client hung up (or was cut off by the request timeout) before its body arrived: its own
 * doing, answered to nobody, logged at info and never counted as a server error.
 */
export class ClientAbortedError extends TracklineError {
  readonly status = 400;
  readonly code = 'client_aborted';

  constructor() {
    super('Request body incomplete: the client closed the connection');
  }
}

/** A body over the limit (64 KiB); refused as soon as its declared or received size says so. */
export class PayloadTooLargeError extends TracklineError {
  readonly status = 413;
  readonly code = 'payload_too_large';
}

/** The partner has no number pool (docs/openapi/replacement.yaml, `501 No number pool configured`). */
export class NotImplementedError extends TracklineError {
  readonly status = 501;
  readonly code = 'not_implemented';
}
