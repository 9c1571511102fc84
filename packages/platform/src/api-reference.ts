import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { referenceView } from './api-reference-view';
import { parseYamlText } from './yaml-text';

type Json = Record<string, unknown>;

/** What `GET /openapi.json`, `GET /openapi.yaml` and `GET /docs` answer at one serving address. */
export interface ServedApiDocument {
  json: string;
  yaml: string;
  page: string;
}

/** A service's OpenAPI document, read and serialised once at start, served at any address. */
export interface ApiDocument {
  title: string;
  /**
   * The texts with every `servers` URL on `base` (`https://api.example.com`, no trailing slash): the
   * document writes its servers on a placeholder origin (`https://localhost:8443/v1`), and the
   * reference's "try it" must call the address that serves it (docs/partner-api.md, API reference).
   */
  servedAt(base: string): ServedApiDocument;
}

export interface ApiDocumentOptions {
  /** Repository root; the default finds it from this package (see loadApiDocument). */
  root?: string;
  /**
   * Adds what the service derives from the written document to the served one (management: the
   * path forms its router answers, docs/partner-api.md, Path forms). Given and returning the
   * parsed document; the reference page shows the written one.
   */
  served?: (document: Json) => Json;
}

/**
 * Stands for the serving address in the texts made at start; a name that cannot occur in a
 * document (the `.invalid` top-level domain is reserved, RFC 2606).
 */
const SERVING_BASE = 'https://serving-address.invalid';

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
export function loadApiDocument(file: string, options: ApiDocumentOptions = {}): ApiDocument {
  const path = join(options.root ?? join(__dirname, '../../..'), 'docs/openapi', file);
  const parsed = parseYamlText(readFileSync(path, 'utf8')) as Json & { info?: { title?: unknown } };
  if (typeof parsed?.info?.title !== 'string') throw new Error(`${path} is not an OpenAPI document`);
  const title = parsed.info.title;
  const written = onServingBase(parsed);
  const served = options.served?.(written) ?? written;
  // Made once: serialising the management document as YAML takes about half a second.
  const texts: ServedApiDocument = {
    json: JSON.stringify(served),
    yaml: servedYaml(served),
    page: apiReferencePage(title, referenceView(written)),
  };
  return {
    title,
    servedAt: (base) => ({
      json: texts.json.replaceAll(SERVING_BASE, base),
      yaml: texts.yaml.replaceAll(SERVING_BASE, base),
      page: texts.page.replaceAll(SERVING_BASE, base),
    }),
  };
}

/**
 * The document as YAML that every common loader reads as the JSON form: block style, and a
 * string quoted wherever YAML 1.1 would read it as something else (`24:00` as a number in base
 * 60, `2025-03-14` as a date, `on` as true). PyYAML and ruamel speak YAML 1.1 and refused the
 * written file's flow mappings with a `?` inside a plain scalar; js-yaml speaks 1.2. A test loads
 * the served text with all three (api-reference.integration.test.ts).
 */
export function servedYaml(document: Json): string {
  return stringify(document, { version: '1.1', lineWidth: 0 });
}

/** Every `servers` URL (the document's and its operations') moved from its origin to SERVING_BASE. */
function onServingBase(document: Json): Json {
  const move = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(move);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === 'servers' && Array.isArray(value) ? value.map(serverOnBase) : move(value),
      ]),
    );
  };
  return move(document) as Json;
}

function serverOnBase(server: unknown): unknown {
  if (typeof server !== 'object' || server === null) return server;
  const { url } = server as { url?: unknown };
  if (typeof url !== 'string') return server;
  const { pathname } = new URL(url);
  return { ...server, url: `${SERVING_BASE}${pathname === '/' ? '' : pathname}` };
}

/**
 * The address a request reached the service at, for the served document's `servers`: the
 * configured public URL (which may carry a path prefix) when the request came by its host, else
 * `<protocol>://<Host>`. A Host header that is no host name or address with an optional port
 * (it is the client's to send) gets the public URL.
 */
export function servingBase(protocol: 'http' | 'https', host: string | undefined, publicUrl: string): string {
  const configured = new URL(publicUrl);
  const base = `${configured.origin}${configured.pathname.replace(/\/+$/, '')}`;
  if (host === undefined || !SERVING_HOST.test(host)) return base;
  if (host.toLowerCase() === configured.host) return base;
  return `${protocol}://${host.toLowerCase()}`;
}

const SERVING_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

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
 * the document's description points to `/openapi.json` and `/openapi.yaml`. The viewer's developer
 * tools (its "Deploy", "Share" and "Configure" toolbar, shown by default on a localhost address)
 * are for whoever writes a document, not for partners reading it: never shown. URLs are relative
 * (`docs/…` from `/docs` names `/docs/…`), so the page also works behind a proxy that adds a path
 * prefix.
 * The mount point is not `#api-reference`: the bundle mounts an empty viewer of its own on an
 * element with that id, which showed as a loading skeleton above the reference. Every script
 * comes from the service. The viewer's stylesheet still names its vendor's web fonts
 * (`withDefaultFonts: false` does not drop them in this version); API_REFERENCE_CSP refuses them
 * and the browser uses system fonts, online or not.
 */
export function apiReferencePage(documentTitle: string, view: Json): string {
  const title = escapeHtml(documentTitle);
  // `<` is escaped so no text of the document can close the script element.
  const configuration = JSON.stringify({
    content: view,
    documentDownloadType: 'none',
    showDeveloperTools: 'never',
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
