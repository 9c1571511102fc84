import { ProjectionDecodeError } from '@trackline/contracts';
import { isTracklineError } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import { ClientAbortedError, StoreUnavailableError } from './replacement-errors';

/**
 * The one place errors become a status and a text (STYLE §6). Client errors are answered as they
 * are; store failures are logged briefly (they come in floods while Redis is down); anything else
 * is logged with its stack and answered with a generic text.
 */
export function toHttpError(error: unknown, log: Logger): { status: number; message: string } {
  if (error instanceof StoreUnavailableError) {
    log.warn({ reason: error.reason }, 'store unavailable');
    return { status: 500, message: error.message };
  }
  if (error instanceof ClientAbortedError) {
    log.info('client aborted the request body');
    return { status: error.status, message: error.message };
  }
  if (isTracklineError(error)) return { status: error.status, message: error.message };
  if (error instanceof ProjectionDecodeError) {
    log.error({ err: error }, 'unreadable projection in Redis');
    return { status: 500, message: 'Partner configuration unreadable' };
  }
  log.error({ err: error }, 'unexpected error');
  return { status: 500, message: 'Internal error' };
}
