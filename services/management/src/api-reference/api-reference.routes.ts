import {
  API_REFERENCE_CSP,
  API_REFERENCE_PATHS,
  apiReferenceScript,
  servingBase,
  type ApiDocument,
  type ServedApiDocument,
} from '@trackline/platform';
import type { PublicRouteContext, PublicRouteDefinition } from '../http/route-definition';

/** Browsers may keep the viewer's bundle for a day; the document and page are re-read on every visit. */
const SCRIPT_CACHE = { 'Cache-Control': 'public, max-age=86400' };
const NO_CACHE: Record<string, string> = { 'Cache-Control': 'no-cache', Vary: 'Host' };

/**
 * `GET /docs` (the interactive reference of docs/openapi/management.yaml), the viewer's script, and
 * the document itself as `/openapi.json` and `/openapi.yaml`: public, since the document holds no
 * secret, but over HTTPS like every other partner-facing path (docs/partner-api.md, API reference).
 * The document's `servers` are the address the request came to (only HTTPS reaches a route), so
 * the reference's "try it" calls the service that served it; `publicUrl` is MANAGEMENT_PUBLIC_URL.
 */
export function apiReferenceRoutes(document: ApiDocument, publicUrl: string): PublicRouteDefinition[] {
  const servedTo = (context: PublicRouteContext) =>
    document.servedAt(servingBase('https', context.host, publicUrl));
  const route = (
    path: string,
    contentType: string,
    body: (context: PublicRouteContext) => string | Buffer,
    headers = NO_CACHE,
  ) =>
    ({
      method: 'GET',
      path,
      access: 'public',
      handle: async (context) => ({ kind: 'document', contentType, body: body(context), headers }),
    }) satisfies PublicRouteDefinition;
  const served = (form: keyof ServedApiDocument) => (context: PublicRouteContext) => servedTo(context)[form];
  return [
    route(API_REFERENCE_PATHS.page, 'text/html; charset=utf-8', served('page'), {
      ...NO_CACHE,
      'Content-Security-Policy': API_REFERENCE_CSP,
    }),
    route(API_REFERENCE_PATHS.script, 'text/javascript; charset=utf-8', apiReferenceScript, SCRIPT_CACHE),
    route(API_REFERENCE_PATHS.json, 'application/json; charset=utf-8', served('json')),
    route(API_REFERENCE_PATHS.yaml, 'application/yaml; charset=utf-8', served('yaml')),
  ];
}
