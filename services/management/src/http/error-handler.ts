import { isTracklineError } from '@trackline/domain';
import type { Logger, StoreOutages } from '@trackline/platform';
import type { ErrorRequestHandler, Response } from 'express';
import { PG_UNAVAILABLE_CODES } from '../db/pg-errors';
import { AuthenticationError, MethodNotAllowedError } from './http-errors';
import { responseFormat } from './request-state';
import { renderError } from './response-renderer';

/** Error codes of a store that cannot be reached: Node's socket errors, and Postgres's own. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  ...PG_UNAVAILABLE_CODES,
]);
const UNREACHABLE_MESSAGES =
  /Connection is closed|Connection terminated|connect ECONNREFUSED|Stream isn't writeable|enableOfflineQueue|Command timed out|timeout exceeded when trying to connect|Reached the max retries per request/i;
/** What only ioredis says; every other unreachable error comes from pg (through TypeORM). */
const REDIS_MESSAGES =
  /Connection is closed|Stream isn't writeable|enableOfflineQueue|Command timed out|Reached the max retries per request/i;

/**
 * Seconds a client should wait before retrying a 503, on every 503 management answers (as
 * replacement does): the switch, the provider and partners retry a store outage, and a second is
 * what a pool reconnection or a Redis failover takes at best (docs/operations.md, Store outages).
 */
export const RETRY_AFTER_SECONDS = '1';

/** The stores management reaches: its outages are told by store (docs/operations.md, Store outages). */
export const MANAGEMENT_STORES = ['postgres', 'redis'] as const;
export type ManagementStore = (typeof MANAGEMENT_STORES)[number];

/**
 * The one place an error becomes a response (docs/architecture.md, One edge), for every route — partner, switch and
 * provider (docs/architecture.md, One edge): typed errors with their status and message,
 * body-parser's errors translated, an unreachable Postgres/Redis as 503, anything else a 500
 * whose stack goes to the log only. The format is the route's: negotiated JSON or XML for partner
 * routes, JSON for the switch's and the provider's.
 */
export function errorHandler(
  fallbackLogger: Logger,
  outages?: StoreOutages<ManagementStore>,
): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const log = (req as { log?: Logger }).log ?? fallbackLogger;
    const { status, message } = classify(error, log, outages);
    if (error instanceof MethodNotAllowedError) res.setHeader('Allow', error.allow.join(', '));
    if (error instanceof AuthenticationError) res.setHeader('WWW-Authenticate', error.challenges);
    send(res, status, message);
  };
}

function classify(
  error: unknown,
  log: Logger,
  outages: StoreOutages<ManagementStore> | undefined,
): { status: number; message: string } {
  if (isTracklineError(error)) {
    // A 503 for a store outage is one of many while it lasts: counted, told once (docs/operations.md, Store outages).
    const outage =
      error.status === 503 && error.cause !== undefined && outages?.refused(error.cause, 'request');
    if (error.status >= 500 && outage !== true) log.warn({ err: error }, 'request failed');
    return { status: error.status, message: error.message };
  }
  const bodyError = bodyParserError(error);
  if (bodyError !== undefined) {
    // The client hung up, or the request timeout cut off its trickle: its event, not ours.
    if ((error as { type?: unknown }).type === 'request.aborted') log.info('client aborted the request body');
    return bodyError;
  }
  if (isStoreUnreachable(error)) {
    if (outages?.refused(error, 'request') !== true) log.error({ err: error }, 'a store is unreachable');
    return { status: 503, message: 'Service temporarily unavailable; retry later' };
  }
  log.error({ err: error }, 'unexpected error');
  return { status: 500, message: 'Internal server error' };
}

function bodyParserError(error: unknown): { status: number; message: string } | undefined {
  const { type, limit, status } = (error ?? {}) as { type?: unknown; limit?: unknown; status?: unknown };
  if (typeof type !== 'string') return undefined;
  const detail = (error as Error).message;
  switch (type) {
    case 'entity.parse.failed':
      return { status: 400, message: `body: is not valid JSON (${detail})` };
    case 'entity.too.large':
      // The limit of the route's parser: 1 MiB for partner routes, more for the switch's greetings.
      return { status: 413, message: `body: must be at most ${String(limit)} bytes` };
    case 'parameters.too.many':
      return { status: 413, message: 'body: too many parameters' };
    case 'encoding.unsupported':
      return { status: 400, message: `Content-Encoding: not supported (${detail})` };
    case 'charset.unsupported':
      return { status: 400, message: 'Content-Type: charset must be UTF-8' };
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return { status: 400, message: `body: ${detail}` };
    default:
      // Any other refusal of the body parser is the client's (its status says so), never a 500.
      return typeof status === 'number' && status >= 400 && status < 500
        ? { status, message: `body: ${detail}` }
        : undefined;
  }
}

export function isStoreUnreachable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message, name, driverError } = error as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    driverError?: unknown;
  };
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  if (name === 'MaxRetriesPerRequestError') return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
  return driverError !== undefined && driverError !== error && isStoreUnreachable(driverError);
}

/** Which store an error says is unreachable (through a typed error's cause); undefined for any other error. */
export function unreachableStore(error: unknown): ManagementStore | undefined {
  if (isTracklineError(error)) return error.cause === undefined ? undefined : unreachableStore(error.cause);
  if (!isStoreUnreachable(error)) return undefined;
  const { message, name } = error as { message?: unknown; name?: unknown };
  const redis =
    name === 'MaxRetriesPerRequestError' || (typeof message === 'string' && REDIS_MESSAGES.test(message));
  return redis ? 'redis' : 'postgres';
}

export function send(res: Response, status: number, message: string): void {
  const rendered = renderError(status, message, responseFormat(res));
  if (status === 503) res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
  res.status(status).type(rendered.contentType).send(rendered.body);
}
