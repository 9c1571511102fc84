import type { RouteDefinition } from '../http/route-definition';

/**
 * `GET /miscellaneous/ping`: reaching the handler means digest authentication and the IP
 * allowlist passed, which is all a partner's keepalive check wants to know (seed: Authentication 5).
 */
export function pingRoutes(): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/miscellaneous/ping',
      handle: async () => ({ kind: 'value', root: 'ping', value: 'ok' }),
    },
  ];
}
