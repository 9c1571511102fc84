import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger, StoreOutages } from '@trackline/platform';
import { NUMBER_STORE_OUTAGE, toHttpError } from '../http/error-mapper';
import { elapsedMs, markRequestStart, sendJson } from '../http/json-response';
import { readRawBody } from '../http/raw-body';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { withStoreDeadline } from '../http/store-deadline';
import type { ReplacementMetrics } from '../metrics/replacement-metrics';
import { failureBody, responseStatus } from './dynamic-numbers.response';
import type { DynamicNumbersService } from './dynamic-numbers.service';

export interface DynamicNumbersRoutesDeps {
  service: DynamicNumbersService;
  /** Epoch ms of "now" for the pool rules. */
  clock: () => number;
  storeDeadlineMs: number;
  logger: Logger;
  /** The request's id from its `X-Request-Id` header (see http/request-id.ts). */
  requestId: (incoming: unknown) => string;
  metrics: Pick<ReplacementMetrics, 'replacementAnswered' | 'redisFailure'>;
  /** Redis outages told once each (docs/operations.md, Store outages). */
  outages?: StoreOutages<'redis'>;
}

/**
 * `POST /dynamic-numbers` and `POST /` (docs/number-replacement.md) on plain node:http, in front of Express.
 * This is the only hot path of the service, and Express's router plus a per-request child logger cost it
 * about half its throughput (docs/benchmarks.md). What Express gave it is done here directly: the request id
 * (echoed in `X-Request-Id`), `?sign=` parsed as Express's query parser does, and the access-log line, which
 * on this path is written at debug level so a loaded service does not spend its time logging every request;
 * failures are still logged by the error mapper with the id.
 */
export function dynamicNumbersRoutes(deps: DynamicNumbersRoutesDeps): RequestListener {
  const { service, clock, storeDeadlineMs, logger, metrics } = deps;

  const serve = async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    const headers = { 'X-Request-Id': requestId };
    try {
      const body = await readRawBody(req);
      const result = await withStoreDeadline(
        service.replace(body, signatureOf(req), clock()),
        storeDeadlineMs,
      );
      metrics.replacementAnswered(200, sendJson(res, 200, result, headers));
    } catch (error) {
      const { status, message } = toHttpError(
        error,
        logger.child({ reqId: requestId }),
        NUMBER_STORE_OUTAGE,
        deps.outages,
      );
      if (error instanceof StoreUnavailableError) metrics.redisFailure(error.timedOut);
      const wantsHttpStatuses = req.headers['x-http-statuses'] !== undefined;
      const ms = sendJson(res, responseStatus(status, wantsHttpStatuses), failureBody(message), headers);
      metrics.replacementAnswered(status, ms);
    }
    if (logger.isLevelEnabled('debug')) {
      logger.debug(
        {
          reqId: requestId,
          method: req.method,
          url: req.url,
          status: res.statusCode,
          ms: round2(elapsedMs(res)),
        },
        'request',
      );
    }
  };

  return (req, res) => {
    markRequestStart(res);
    const requestId = deps.requestId(req.headers['x-request-id']);
    serve(req, res, requestId).catch((error: unknown) => {
      // Only a failure while writing the answer gets here; the connection may already be gone.
      logger.error({ err: error, reqId: requestId }, 'replacement response failed');
      if (!res.headersSent) sendJson(res, 500, failureBody('Internal error'), { 'X-Request-Id': requestId });
      else res.destroy();
    });
  };
}

/**
 * The requests this path serves, matched as Express's router matched them before: POST, path `/`
 * or `/dynamic-numbers`, case-insensitive, one trailing slash allowed (so `//` is `/`), any query
 * string.
 */
export function isDynamicNumbersRequest(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (path === '/dynamic-numbers' || path === '/' || path === '//') return true;
  const lower = path.toLowerCase();
  return lower === '/dynamic-numbers' || lower === '/dynamic-numbers/';
}

// `?sign=` or `X-SIGN` (seed, Authentication); a repeated parameter is not a signature. The query
// is parsed with node:querystring, Express's default query parser, only when there is one.
function signatureOf(req: IncomingMessage): string | undefined {
  const url = req.url ?? '';
  const queryAt = url.indexOf('?');
  if (queryAt !== -1) {
    const fromQuery = parseQuery(url.slice(queryAt + 1)).sign;
    if (typeof fromQuery === 'string') return fromQuery;
  }
  const fromHeader = req.headers['x-sign'];
  return typeof fromHeader === 'string' ? fromHeader : undefined;
}

function round2(ms: number): number {
  return Math.round(ms * 100) / 100;
}
