import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { referenceView } from './api-reference-view';
import { parseYamlText } from './yaml-text';

/** A service's OpenAPI document, read once at start, in the forms `GET /openapi.{yaml,json}` serve. */
export interface ApiDocument {
  title: string;
  yaml: string;
  json: string;
  /** What the viewer is given (api-reference-view.ts), as JSON. */
  viewJson: string;
}

/** The paths every service serves its reference under (docs/partner-api.md, API reference). */
export const API_REFERENCE_PATHS = {
  page: '/docs',
  script: '/docs/api-reference.js',
  json: '/openapi.json',
  yaml: '/openapi.yaml',
} as const;

/**
 * The page's Content-Security-Policy: scripts, styles, fonts and requests only from the service
 * itself (the inline start script and the viewer's inline styles included), so the reference
 * cannot reach out to a CDN or a vendor service even where the viewer would try to.
 */
export const API_REFERENCE_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "font-src 'self' data:; img-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
  "frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

/**
 * Reads `docs/openapi/<file>` from the repository root. Both `src/` (tests) and `dist/` (the built
 * service) sit three levels below it, and the Docker images copy `docs/openapi/` to the same place
 * beside `services/`, so one relative path serves all three. A missing or broken document stops
 * the start: a service that cannot describe itself is a packaging fault, not a runtime surprise.
 */
export function loadApiDocument(file: string, root = join(__dirname, '../../..')): ApiDocument {
  const path = join(root, 'docs/openapi', file);
  const yaml = readFileSync(path, 'utf8');
  const parsed = parseYamlText(yaml) as { info?: { title?: unknown } };
  if (typeof parsed?.info?.title !== 'string') throw new Error(`${path} is not an OpenAPI document`);
  return {
    title: parsed.info.title,
    yaml,
    json: JSON.stringify(parsed),
    viewJson: JSON.stringify(referenceView(parsed)),
  };
}

let script: Buffer | undefined;

/**
 * The reference viewer's browser bundle (Scalar's standalone build), served by the service itself
 * so the page works without a CDN. `@scalar/api-reference` exports no path to it, so it is found
 * beside the package's main entry, which does resolve.
 */
export function apiReferenceScript(): Buffer {
  script ??= readFileSync(join(dirname(require.resolve('@scalar/api-reference')), 'browser/standalone.js'));
  return script;
}

/**
 * The HTML of `GET /docs`. The viewer gets the document in the page (its reference view, where
 * each operation is listed once); the download it offers would be that view, so it offers none and
 * the document's description points to `/openapi.json` and `/openapi.yaml`. URLs are relative
 * (`docs/…` from `/docs` names `/docs/…`), so the page also works behind a proxy that adds a path
 * prefix.
 * The mount point is not `#api-reference`: the bundle mounts an empty viewer of its own on an
 * element with that id, which showed as a loading skeleton above the reference. Every script
 * comes from the service. The viewer's stylesheet still names its vendor's web fonts
 * (`withDefaultFonts: false` does not drop them in this version); API_REFERENCE_CSP refuses them
 * and the browser uses system fonts, online or not.
 */
export function apiReferencePage(document: ApiDocument): string {
  const title = escapeHtml(document.title);
  // Parsed back so the configuration's `content` is the object itself, not a string to parse twice;
  // `<` is escaped so no text of the document can close the script element.
  const configuration = JSON.stringify({
    content: JSON.parse(document.viewJson) as unknown,
    documentDownloadType: 'none',
    withDefaultFonts: false,
    // The sidebar lists every operation at once: the APIs are small enough to read as a whole.
    defaultOpenAllTags: true,
    telemetry: false,
    // Both would call the viewer vendor's hosted services (API_REFERENCE_CSP refuses them anyway).
    agent: { disabled: true },
    mcp: { disabled: true },
  }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} — reference</title>
  </head>
  <body>
    <noscript>${title}: the reference needs JavaScript; the document itself is at <a href="openapi.yaml">openapi.yaml</a>.</noscript>
    <div id="reference"></div>
    <script src="${API_REFERENCE_PATHS.script.slice(1)}"></script>
    <script>Scalar.createApiReference('#reference', ${configuration});</script>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
