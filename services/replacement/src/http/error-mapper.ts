import { ProjectionDecodeError } from '@trackline/contracts';
import { isTracklineError } from '@trackline/domain';
import type { Logger, StoreOutages } from '@trackline/platform';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { ClientAbortedError } from './replacement-errors';

/** How a route answers a store outage. */
export interface StoreOutageAnswer {
  status: number;
  message: string;
}

/** 503, like a store outage on every route of both services (docs/architecture.md, One edge). */
export const ROUTING_STORE_OUTAGE: StoreOutageAnswer = { status: 503, message: 'Routing store unavailable' };

/**
 * The replacement API's contract with partners' pages (docs/openapi/replacement.yaml, check 7):
 * `500 Number store unavailable`, counted under `500` (docs/operations.md, Metrics). The one
 * exception to the 503: the page shows its own numbers either way.
 */
export const NUMBER_STORE_OUTAGE: StoreOutageAnswer = { status: 500, message: 'Number store unavailable' };

/** Which store an error says is unreachable: replacement has one, Redis. */
export function unreachableStore(error: unknown): 'redis' | undefined {
  return error instanceof StoreUnavailableError ? 'redis' : undefined;
}

/**
 * The one place errors become a status and a text (docs/architecture.md, One edge). Client errors are answered as they
 * are; store failures come in floods while Redis is down, so `outages` tells each outage once
 * (docs/operations.md, Store outages) and they are answered as the route's contract says; anything
 * else is logged with its stack and answered with a generic text.
 */
export function toHttpError(
  error: unknown,
  log: Logger,
  storeOutage: StoreOutageAnswer = ROUTING_STORE_OUTAGE,
  outages?: StoreOutages<'redis'>,
): { status: number; message: string } {
  if (error instanceof StoreUnavailableError) {
    if (outages?.refused(error, 'request') !== true) log.warn({ reason: error.reason }, 'store unavailable');
    return storeOutage;
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
