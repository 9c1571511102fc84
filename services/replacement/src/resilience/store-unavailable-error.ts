import { TracklineError } from '@trackline/domain';

/** ioredis's message when a command outlives `commandTimeout`. */
const IOREDIS_TIMEOUT = 'Command timed out';

/**
 * Redis failed, timed out or is unreachable: thrown by the stores and the request deadline, and
 * answered at once instead of waiting. A 503 like a store outage on every route
 * (docs/architecture.md, One edge); the error mapper (http/error-mapper.ts) words it per route.
 */
export class StoreUnavailableError extends TracklineError {
  readonly status = 503;
  readonly code = 'store_unavailable';

  /** `timedOut`: no answer in time (a command or the request's deadline), as against a refused or lost connection. */
  constructor(
    readonly reason: string,
    readonly timedOut = false,
  ) {
    super('Store unavailable');
  }

  /** From what a Redis command threw. */
  static from(error: unknown): StoreUnavailableError {
    const reason = error instanceof Error ? error.message : String(error);
    return new StoreUnavailableError(reason, reason === IOREDIS_TIMEOUT);
  }
}
