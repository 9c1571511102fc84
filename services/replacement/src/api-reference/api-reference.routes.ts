import {
  API_REFERENCE_CSP,
  API_REFERENCE_PATHS,
  apiReferencePage,
  apiReferenceScript,
  type ApiDocument,
} from '@trackline/platform';
import { Router, type Response } from 'express';

/** The paths below answer GET (and HEAD) only; the app's fallback answers 405 for other methods. */
export const API_REFERENCE_GET_PATHS: readonly string[] = Object.values(API_REFERENCE_PATHS);

/**
 * `GET /docs` (the interactive reference of docs/openapi/replacement.yaml), the viewer's script, and
 * the document itself as `/openapi.json` and `/openapi.yaml`, without authentication: the document
 * holds no secret (docs/number-replacement.md, API reference). Off the hot path (Express).
 */
export function apiReferenceRoutes(document: ApiDocument): Router {
  const page = apiReferencePage(document);
  const send = (res: Response, contentType: string, body: string | Buffer, cache = 'no-cache') => {
    res.writeHead(200, {
      'Content-Type': contentType,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': cache,
    });
    res.end(body);
  };
  const router = Router();
  router.get(API_REFERENCE_PATHS.page, (_req, res) => {
    res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
    send(res, 'text/html; charset=utf-8', page);
  });
  router.get(API_REFERENCE_PATHS.script, (_req, res) =>
    send(res, 'text/javascript; charset=utf-8', apiReferenceScript(), 'public, max-age=86400'),
  );
  router.get(API_REFERENCE_PATHS.json, (_req, res) =>
    send(res, 'application/json; charset=utf-8', document.json),
  );
  router.get(API_REFERENCE_PATHS.yaml, (_req, res) =>
    send(res, 'application/yaml; charset=utf-8', document.yaml),
  );
  return router;
}
