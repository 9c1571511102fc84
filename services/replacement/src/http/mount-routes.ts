import { bearerTokenMatches, UnauthorizedError, ValidationError } from '@trackline/domain';
import type { StoreOutages } from '@trackline/platform';
import type { Express, Request, Response } from 'express';
import type { ReplacementMetrics } from '../metrics/replacement-metrics';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { toHttpError } from './error-mapper';
import { sendJson, serverTiming } from './json-response';
import { readSignedForm } from './provider-signature';
import { readRawBody } from './raw-body';
import type { RouteAnswer, RouteDefinition } from './route-definition';

/**
 * The route-registration helper of the replacement service (docs/architecture.md, One
 * edge): every switch and provider route runs behind the steps its access option names — the
 * bearer token before the body is read, or the provider's signature over the raw form — and every
 * error is answered by the one mapper (error-mapper.ts) as `{"error": {"status", "message"}}`. A
 * store outage is 503 with `Retry-After`, so the switch retries and the provider turns to the
 * number's fallback URL at once; each one is counted in `trackline_redis_errors_total`.
 */
export function mountRoutes(
  app: Express,
  routes: readonly RouteDefinition[],
  deps: { metrics: Pick<ReplacementMetrics, 'redisFailure'>; outages?: StoreOutages<'redis'> },
): void {
  for (const route of routes) {
    app.post(route.path, async (req: Request, res: Response) => {
      try {
        const base = { query: new URL(req.originalUrl, 'http://query.invalid').searchParams, log: req.log };
        let answer: RouteAnswer;
        if (route.access === 'switch') {
          if (!bearerTokenMatches(req.headers.authorization, route.token))
            throw new UnauthorizedError('A valid bearer token is required');
          answer = await route.handle({ ...base, body: parseJson(await readRawBody(req)) });
        } else {
          const form = await readSignedForm(
            req,
            route.signature.publicUrl,
            route.signature.authToken,
            req.log,
          );
          answer = await route.handle({ ...base, form });
        }
        send(res, answer);
      } catch (error) {
        const { status, message } = toHttpError(error, req.log, undefined, deps.outages);
        if (error instanceof StoreUnavailableError) deps.metrics.redisFailure(error.timedOut);
        const headers: Record<string, string> = {};
        if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
        if (status === 503) headers['Retry-After'] = '1';
        sendJson(res, status, { error: { status, message } }, headers);
      }
    });
  }
}

function send(res: Response, answer: RouteAnswer): void {
  if (answer.kind === 'json') {
    sendJson(res, answer.status ?? 200, answer.body);
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/xml; charset=utf-8',
    'Content-Length': Buffer.byteLength(answer.xml),
    'Server-Timing': serverTiming(res),
  });
  res.end(answer.xml);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ValidationError('body', 'must be JSON');
  }
}
