import type { Logger } from '@trackline/platform';
import type { ApiResponse } from '../http/api-response';
import type { AuthenticatedPartner, HttpMethod, RouteDefinition } from '../http/route-definition';

/** A partner as partner authentication hands it to the routes: Norwegian, no custom fields unless given. */
export function routePartner(
  id: string,
  name: string,
  customFields: AuthenticatedPartner['customFields'] = { customer: [], source: [] },
): AuthenticatedPartner {
  return { id, name, country: 'NO', timeZone: 'Europe/Oslo', showFullAnum: false, customFields };
}

export interface RouteCall {
  partner: AuthenticatedPartner;
  now: Date;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/**
 * Calls the route registered for method and path directly, as the HTTP platform would after
 * authentication and body parsing; absent params, query and body are empty.
 */
export function callRoute(
  routes: readonly RouteDefinition[],
  method: HttpMethod,
  path: string,
  call: RouteCall,
): Promise<ApiResponse> {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (route === undefined) throw new Error(`no route ${method} ${path}`);
  return route.handle({
    partner: call.partner,
    params: call.params ?? {},
    query: call.query ?? {},
    body: call.body ?? {},
    now: call.now,
    log: {} as Logger,
  });
}

/** The error a promise rejects with; fails the test when it resolves instead. */
export function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}
