import { isTracklineError, NotFoundError } from '@trackline/domain';
import { isDataException } from '../db/pg-errors';
import { isStoreUnreachable } from '../http/error-handler';
import type { Cdr } from './cdr';

/**
 * Why a record was not stored, for `trackline_cdrs_ingested_total`: refused by a rule of the input
 * (`invalid`), a `bnum` that is no tracking number (`unknown_number`), the store unreachable
 * (`unavailable`, retry later), or an unexpected fault of ours (`error`, logged).
 */
export type IngestFailureReason = 'invalid' | 'unknown_number' | 'unavailable' | 'error';

export interface IngestFailure {
  ok: false;
  callId: string | null;
  status: number;
  message: string;
  reason: IngestFailureReason;
  /** The fault behind an `error` or `unavailable` outcome, for the log. */
  cause?: unknown;
}

export type IngestOutcome = { ok: true; cdr: Cdr; created: boolean } | IngestFailure;

/**
 * What a record's failure tells the switch (docs/cdrs.md, "Batches"): a rule it broke, 404 for an
 * unknown number, 503 when a store is unreachable (the switch retries), and 500 for anything else.
 */
export function classifyFailure(callId: string | null, error: unknown): IngestFailure {
  if (isTracklineError(error)) {
    const reason: IngestFailureReason =
      error instanceof NotFoundError ? 'unknown_number' : error.status === 503 ? 'unavailable' : 'invalid';
    return { ok: false, callId, status: error.status, message: error.message, reason };
  }
  if (isStoreUnreachable(error)) {
    return {
      ok: false,
      callId,
      status: 503,
      message: 'Call record cannot be stored right now; retry later',
      reason: 'unavailable',
      cause: error,
    };
  }
  // A data exception: the values can never be stored, so a retry cannot help.
  if (isDataException(error)) {
    return {
      ok: false,
      callId,
      status: 400,
      message: `record: cannot be stored (${(error as Error).message})`,
      reason: 'invalid',
      cause: error,
    };
  }
  return {
    ok: false,
    callId,
    status: 500,
    message: 'Call record could not be stored (internal error, logged)',
    reason: 'error',
    cause: error,
  };
}
