import { bearerTokenMatches, NotFoundError, ValidationError } from '@trackline/domain';
import bodyParser from 'body-parser';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { setRouteTemplate } from './http-metrics';
import { RETRY_AFTER_SECONDS } from './error-handler';
import type { ApiResponse } from './api-response';
import { AuthenticationError } from './http-errors';
import { effectiveMethod } from './method-override';
import { partnerAuthentication, type PartnerAuthenticator } from './partner-authentication';
import { signedForm } from './provider-signature';
import { partnerRateLimit, type PartnerRateLimitOptions } from './rate-limit/partner-rate-limit';
import { requestBody } from './request-body';
import { checkQueryInput, checkRequestInput } from './request-input';
import { requestState, type ResponseFormat } from './request-state';
import { renderResponse } from './response-renderer';
import type {
  AnyRouteDefinition,
  BaseRouteContext,
  EdgeRouteDefinition,
  RouteDefinition,
} from './route-definition';
import { RouteTable } from './route-table';

/** The switch's bearer challenge (docs/openapi/management.yaml, TelephonyUnauthorized). */
const SWITCH_CHALLENGE = 'Bearer realm="trackline-telephony"';

export interface RouteRegistrationDependencies {
  authenticator: PartnerAuthenticator;
  clock: () => Date;
  /** The per-partner request budget; none only in route tests, which count nothing. */
  rateLimit?: PartnerRateLimitOptions;
}

/**
 * The route-registration helper (docs/architecture.md, One edge): every route, partner
 * or switch or provider, runs behind the steps its access option names — authenticated before its
 * body is read, body parsed and checked at the edge, method resolved — and its ApiResponse is
 * rendered here. Handlers only decide and return data; their errors (sync or async) reach the one
 * error handler (error-handler.ts). Register after the request state and the HTTPS check.
 */
export function mountRoutes(
  app: Express,
  definitions: readonly AnyRouteDefinition[],
  deps: RouteRegistrationDependencies,
): void {
  const partnerRoutes = definitions.filter(
    (route): route is RouteDefinition => route.access === undefined || route.access === 'partner',
  );
  const edgeRoutes = definitions.filter(
    (route): route is EdgeRouteDefinition => route.access !== undefined && route.access !== 'partner',
  );
  // Not partner resources: no digest, no allowlist, no version segment; first, so the digest
  // authentication never sees their paths.
  app.use(edgeRouteHandler(new RouteTable(edgeRoutes, { queryForm: false }), deps.clock));
  app.use(partnerAuthentication(deps.authenticator, deps.clock));
  if (deps.rateLimit !== undefined) app.use(partnerRateLimit(deps.rateLimit));
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
  app.use(partnerRouteHandler(new RouteTable(partnerRoutes), deps.clock));
}

function partnerRouteHandler(table: RouteTable<RouteDefinition>, clock: () => Date) {
  return async (req: Request, res: Response): Promise<void> => {
    const state = requestState(res);
    if (state.unknownVersion !== undefined) throw new NotFoundError(`API version ${state.unknownVersion}`);
    if (state.partner === undefined) throw new Error('route reached without an authenticated partner');
    const match = table.match(state.method, state.segments, state.query, state.suffixAt);
    setRouteTemplate(res, match.definition.method, match.definition.path);
    const response = await match.definition.handle({
      partner: state.partner,
      params: match.params,
      query: match.query,
      body: req.body as Record<string, unknown>,
      headers: { range: req.get('range') },
      now: clock(),
      log: req.log,
    });
    send(res, response, state.format);
  };
}

/**
 * The routes outside the partner API, matched on the path as sent. The method is resolved first
 * (405/501 as for partner routes), then the route's access option: the switch's bearer token
 * before its body is read, so an unauthenticated client cannot make the service parse megabytes;
 * the provider's signature over the raw form it sent.
 */
function edgeRouteHandler(table: RouteTable<EdgeRouteDefinition>, clock: () => Date) {
  // One body parser per route, made once: its limit is the route's option.
  const parsers = new Map<EdgeRouteDefinition, RequestHandler>();
  const parserOf = (route: Extract<EdgeRouteDefinition, { bodyLimitBytes: number }>): RequestHandler => {
    let parser = parsers.get(route);
    if (parser === undefined) {
      parser =
        route.access === 'switch'
          ? bodyParser.json({ limit: route.bodyLimitBytes, strict: true })
          : bodyParser.raw({ type: () => true, limit: route.bodyLimitBytes });
      parsers.set(route, parser);
    }
    return parser;
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const segments = pathSegments(req.originalUrl);
    if (table.onPath(segments).length === 0) {
      next();
      return;
    }
    const state = requestState(res);
    // Their answers and errors are JSON (or their own documents), whatever the request asked for.
    state.format = 'json';
    const match = table.match(req.method, segments, state.query);
    const route = match.definition;
    setRouteTemplate(res, route.method, route.path);
    const base: BaseRouteContext = { params: match.params, query: match.query, now: clock(), log: req.log };
    let response: ApiResponse;
    switch (route.access) {
      case 'switch': {
        if (!bearerTokenMatches(req.get('authorization'), route.token))
          throw new AuthenticationError(
            'A valid bearer token (Authorization: Bearer <TELEPHONY_TOKEN>) is required',
            [SWITCH_CHALLENGE],
          );
        if (!req.is('application/json'))
          throw new ValidationError('body', 'must be JSON (Content-Type: application/json)');
        await run(parserOf(route), req, res);
        // The partner API's edge rules for names and nesting (docs/architecture.md, Hardened edges);
        // a body of records gets them record by record from its handler.
        if (route.body === 'records') checkQueryInput(state.query, { values: false });
        else checkRequestInput(state.query, req.body ?? {}, { values: false });
        response = await route.handle({ ...base, body: req.body as unknown });
        break;
      }
      case 'provider': {
        await run(parserOf(route), req, res);
        response = await route.handle({ ...base, form: signedForm(req, route.signature, req.log) });
        break;
      }
      case 'signed-link':
        response = await route.handle(base);
        break;
      case 'public':
        response = await route.handle({ ...base, host: req.get('host') });
        break;
    }
    send(res, response, 'json');
  };
}

function send(res: Response, response: ApiResponse, format: ResponseFormat): void {
  const rendered = renderResponse(response, format);
  if (rendered.headers !== undefined) res.set(rendered.headers);
  // A route's own 503 (a batch of call records none of which could be stored) says when to retry too.
  if (response.status === 503) res.setHeader('Retry-After', RETRY_AFTER_SECONDS);
  res
    .status(response.status ?? 200)
    .type(rendered.contentType)
    .send(rendered.body);
}

/** The path as sent, split; still percent-encoded. A trailing slash is an empty last segment. */
function pathSegments(target: string): string[] {
  return target.split('?')[0].split('/').slice(1);
}

/** Runs a connect-style middleware (a body parser) as a step of the registration. */
function run(handler: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void handler(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error)));
  });
}
