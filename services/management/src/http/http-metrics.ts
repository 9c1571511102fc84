import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

const ROUTE = Symbol('trackline.routeTemplate');

interface Routed {
  [ROUTE]?: { method: string; path: string };
}

/**
 * Called by the route-registration helper once a request matched a route: the label is
 * the template (`/customers/:customerId`) and the method after `_method`/override, never the
 * concrete URL, so the series stay few.
 */
export function setRouteTemplate(res: ServerResponse, method: string, path: string): void {
  (res as Routed)[ROUTE] = { method, path };
}

/**
 * Counts every answered request (on `finish`; a client that hung up first is not counted).
 * Without a registered route, the Express route (`/health`, `/ready`) names it, or
 * `unmatched` (401s before routing, 404s).
 */
export function httpMetrics(observe: (method: string, route: string, status: number) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.once('finish', () => {
      const matched = (res as Routed)[ROUTE];
      if (matched !== undefined) return observe(matched.method, matched.path, res.statusCode);
      const route = (req as Request & { route?: { path?: unknown } }).route;
      const path = typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
      observe(req.method, path, res.statusCode);
    });
    next();
  };
}
