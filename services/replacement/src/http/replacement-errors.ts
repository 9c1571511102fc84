import { TracklineError } from '@trackline/domain';

/** A request the seed's contract refuses with 400; the message is the exact `error` text partners see. */
export class InvalidRequestError extends TracklineError {
  readonly status = 400;
  readonly code = 'invalid_request';

  constructor(message: string) {
    super(message);
  }

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

/** ioredis's message when a command outlives `commandTimeout`. */
const IOREDIS_TIMEOUT = 'Command timed out';

/** Redis failed, timed out or is unreachable: answered at once as a 500 instead of waiting. */
export class StoreUnavailableError extends TracklineError {
  readonly status = 500;
  readonly code = 'store_unavailable';

  /** `timedOut`: no answer in time (a command or the request's deadline), as against a refused or lost connection. */
  constructor(
    readonly reason: string,
    readonly timedOut = false,
  ) {
    super('Number store unavailable');
  }

  /** From what a Redis command threw. */
  static from(error: unknown): StoreUnavailableError {
    const reason = error instanceof Error ? error.message : String(error);
    return new StoreUnavailableError(reason, reason === IOREDIS_TIMEOUT);
  }
}
