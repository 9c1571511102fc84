import { ForbiddenError } from '@trackline/domain';
import { requestContext, type Logger } from '@trackline/platform';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { AddressList } from './address-list';
import { clientAddress, isHttps } from './client-address';
import type { DigestAuthenticator } from './digest/digest-authenticator';
import { httpMetrics } from '../metrics/http-metrics';
import { errorHandler } from './error-handler';
import { healthHandlers, type ReadinessCheck } from './health.routes';
import { effectiveMethod } from './method-override';
import { mountRoutes } from './mount-routes';
import { partnerAuthentication } from './partner-authentication';
import { requestBody } from './request-body';
import { checkRequestInput } from './request-input';
import { parseQuery, parseRequestPath } from './request-path';
import { requestState, setRequestState, type ResponseFormat } from './request-state';
import type { RouteDefinition } from './route-definition';

export interface HttpAppDependencies {
  logger: Logger;
  routes: readonly RouteDefinition[];
  authenticator: DigestAuthenticator;
  trustedProxies: AddressList;
  readiness: readonly ReadinessCheck[];
  clock: () => Date;
  /** The switch's endpoints (docs/switch.md), with their own bearer authentication, at this path. */
  telephony?: { path: string; router: Router };
  /** `GET /metrics` and the request counter (docs/operations.md, Metrics). */
  metrics?: {
    endpoint: (req: Request, res: Response) => void;
    observe: (method: string, route: string, status: number) => void;
  };
}

/**
 * The partner API's express app. Order matters: the response format is known first so every
 * error renders in it; HTTPS is checked before credentials are looked at; authentication runs on
 * the request line as sent (the digest covers it) before the body is read or the method resolved.
 */
export function createHttpApp(deps: HttpAppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
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
  // Not a partner resource: no digest, no allowlist, no version segment; after the HTTPS check.
  if (deps.telephony !== undefined) app.use(deps.telephony.path, deps.telephony.router);
  app.use(partnerAuthentication(deps.authenticator, deps.clock));
  app.use(requestBody());
  app.use((req: Request, res: Response, next: NextFunction) => {
    checkRequestInput(requestState(res).query, req.body);
    next();
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    const state = requestState(res);
    const override = req.headers['x-http-method-override'];
    state.method = effectiveMethod(req.method, state.query, Array.isArray(override) ? override[0] : override);
    delete state.query._method;
    next();
  });
  app.use(mountRoutes(deps.routes, deps.clock));
  app.use(errorHandler(deps.logger));
  return app;
}

/** `Accept: application/xml` (or text/xml) selects XML; anything else, or nothing, JSON. */
function acceptedFormat(req: Request): ResponseFormat {
  const best = req.accepts(['application/json', 'application/xml', 'text/xml']);
  return best === 'application/xml' || best === 'text/xml' ? 'xml' : 'json';
}
