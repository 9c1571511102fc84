import type { TLSSocket } from 'node:tls';
import {
  API_REFERENCE_CSP,
  API_REFERENCE_PATHS,
  apiReferenceScript,
  servingBase,
  type ApiDocument,
} from '@trackline/platform';
import { Router, type Request, type Response } from 'express';

/** The paths below answer GET (and HEAD) only; the app's fallback answers 405 for other methods. */
export const API_REFERENCE_GET_PATHS: readonly string[] = Object.values(API_REFERENCE_PATHS);

/**
 * `GET /docs` (the interactive reference of docs/openapi/replacement.yaml), the viewer's script, and
 * the document itself as `/openapi.json` and `/openapi.yaml`, without authentication: the document
 * holds no secret (docs/number-replacement.md, API reference). Off the hot path (Express).
 * The document's `servers` are the address the request came to, so the reference's "try it" calls
 * the service that served it; `publicUrl` is REPLACEMENT_PUBLIC_URL.
 */
export function apiReferenceRoutes(document: ApiDocument, publicUrl: string): Router {
  const send = (res: Response, contentType: string, body: string | Buffer, cache = 'no-cache') => {
    res.writeHead(200, {
      'Content-Type': contentType,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': cache,
      ...(cache === 'no-cache' ? { Vary: 'Host, X-Forwarded-Proto' } : {}),
    });
    res.end(body);
  };
  const servedTo = (req: Request) =>
    document.servedAt(servingBase(protocolOf(req), req.get('host'), publicUrl));
  const router = Router();
  router.get(API_REFERENCE_PATHS.page, (req, res) => {
    res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
    send(res, 'text/html; charset=utf-8', servedTo(req).page);
  });
  router.get(API_REFERENCE_PATHS.script, (_req, res) =>
    send(res, 'text/javascript; charset=utf-8', apiReferenceScript(), 'public, max-age=86400'),
  );
  router.get(API_REFERENCE_PATHS.json, (req, res) =>
    send(res, 'application/json; charset=utf-8', servedTo(req).json),
  );
  router.get(API_REFERENCE_PATHS.yaml, (req, res) =>
    send(res, 'application/yaml; charset=utf-8', servedTo(req).yaml),
  );
  return router;
}

/**
 * The protocol the client used: TLS here, or what the TLS-terminating proxy in front says (its
 * value is the right-most one). The service speaks plain HTTP behind such a proxy
 * (docs/configuration.md); a client that sends the header itself only misleads its own reading.
 */
function protocolOf(req: Request): 'http' | 'https' {
  if ((req.socket as Partial<TLSSocket>).encrypted === true) return 'https';
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value !== '');
  return forwarded.at(-1) === 'https' ? 'https' : 'http';
}
