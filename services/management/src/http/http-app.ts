import { ForbiddenError } from '@trackline/domain';
import { requestContext, type Logger, type StoreOutages } from '@trackline/platform';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { AddressList } from './address-list';
import { clientAddress, isHttps } from './client-address';
import { httpMetrics } from './http-metrics';
import { errorHandler, type ManagementStore } from './error-handler';
import { healthHandlers, type ReadinessCheck } from './health.routes';
import { mountRoutes } from './mount-routes';
import type { PartnerAuthenticator } from './partner-authentication';
import type { PartnerRateLimitOptions } from './rate-limit/partner-rate-limit';
import { parseQuery, parseRequestPath } from './request-path';
import { setRequestState, type ResponseFormat } from './request-state';
import type { AnyRouteDefinition } from './route-definition';

export interface HttpAppDependencies {
  logger: Logger;
  /** Every route, partner, switch and provider, each with its access option (mount-routes.ts). */
  routes: readonly AnyRouteDefinition[];
  authenticator: PartnerAuthenticator;
  /** The per-partner request budget (docs/partner-api.md, Rate limit); none: unlimited. */
  rateLimit?: PartnerRateLimitOptions;
  trustedProxies: AddressList;
  /** Store outages told once each (docs/operations.md, Store outages); without it each refusal is logged. */
  outages?: StoreOutages<ManagementStore>;
  readiness: readonly ReadinessCheck[];
  clock: () => Date;
  /** `GET /metrics` and the request counter (docs/operations.md, Metrics). */
  metrics?: {
    endpoint: (req: Request, res: Response) => void;
    observe: (method: string, route: string, status: number) => void;
  };
}

/**
 * The management HTTP app: the partner API and the switch's and the provider's endpoints. Order
 * matters: the response format is known first so every error renders in it; HTTPS is checked
 * before credentials are looked at; authentication runs on the request line as sent (the digest
 * covers it) before the body is read or the method resolved.
 */
export function createHttpApp(deps: HttpAppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // `/health/` and `/HEALTH` are not `/health`: every path the service answers is one the
  // document lists (docs/partner-api.md, Path forms).
  app.enable('strict routing');
  app.enable('case sensitive routing');
  app.set('etag', false);
  app.use(requestContext(deps.logger));
  if (deps.metrics !== undefined) app.use(httpMetrics(deps.metrics.observe));

  const health = healthHandlers(deps.readiness);
  app.get('/health', health.health);
  app.get('/ready', health.ready);
  // Before the HTTPS check, like the probes: scrapers often speak plain HTTP (it has its own allowlist).
  if (deps.metrics !== undefined) app.get('/metrics', deps.metrics.endpoint);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const pathname = req.originalUrl.split('?')[0];
    const parsed = parseRequestPath(pathname);
    const query = parseQuery(req.originalUrl);
    setRequestState(res, {
      format: parsed.format ?? acceptedFormat(req),
      segments: parsed.segments,
      suffixAt: parsed.suffixAt,
      unknownVersion: parsed.unknownVersion,
      query,
      method: req.method,
      clientAddress: clientAddress(req, deps.trustedProxies),
    });
    next();
  });
  app.use((req: Request, _res: Response, next: NextFunction) => {
    if (!isHttps(req, deps.trustedProxies)) throw new ForbiddenError('HTTPS required');
    next();
  });
  mountRoutes(app, deps.routes, {
    authenticator: deps.authenticator,
    clock: deps.clock,
    rateLimit: deps.rateLimit,
  });
  app.use(errorHandler(deps.logger, deps.outages));
  return app;
}

/** `Accept: application/xml` (or text/xml) selects XML; anything else, or nothing, JSON. */
function acceptedFormat(req: Request): ResponseFormat {
  const best = req.accepts(['application/json', 'application/xml', 'text/xml']);
  return best === 'application/xml' || best === 'text/xml' ? 'xml' : 'json';
}
