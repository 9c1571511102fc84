import {
  API_REFERENCE_CSP,
  API_REFERENCE_PATHS,
  apiReferencePage,
  apiReferenceScript,
  type ApiDocument,
} from '@trackline/platform';
import type { PublicRouteDefinition } from '../http/route-definition';

/** Browsers may keep the viewer's bundle for a day; the document and page are re-read on every visit. */
const SCRIPT_CACHE = { 'Cache-Control': 'public, max-age=86400' };
const NO_CACHE: Record<string, string> = { 'Cache-Control': 'no-cache' };

/**
 * `GET /docs` (the interactive reference of docs/openapi/management.yaml), the viewer's script, and
 * the document itself as `/openapi.json` and `/openapi.yaml`: public, since the document holds no
 * secret, but over HTTPS like every other partner-facing path (docs/partner-api.md, API reference).
 */
export function apiReferenceRoutes(document: ApiDocument): PublicRouteDefinition[] {
  const page = apiReferencePage(document);
  const route = (path: string, contentType: string, body: () => string | Buffer, headers = NO_CACHE) =>
    ({
      method: 'GET',
      path,
      access: 'public',
      handle: async () => ({ kind: 'document', contentType, body: body(), headers }),
    }) satisfies PublicRouteDefinition;
  return [
    route(API_REFERENCE_PATHS.page, 'text/html; charset=utf-8', () => page, {
      ...NO_CACHE,
      'Content-Security-Policy': API_REFERENCE_CSP,
    }),
    route(API_REFERENCE_PATHS.script, 'text/javascript; charset=utf-8', apiReferenceScript, SCRIPT_CACHE),
    route(API_REFERENCE_PATHS.json, 'application/json; charset=utf-8', () => document.json),
    route(API_REFERENCE_PATHS.yaml, 'application/yaml; charset=utf-8', () => document.yaml),
  ];
}
