import type { IncomingHttpHeaders } from 'node:http';
import { XMLParser } from 'fast-xml-parser';
import { DigestClient } from './digest-client';
import type { HttpResult } from './https-request';

/** The seed's write content type, misspelled as the interface spells it. */
export const SEED_FORM_CONTENT_TYPE = 'application/x-www-form-urlencode';

export type Format = 'json' | 'xml';

export interface ApiAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The JSON body, or the XML document parsed to plain objects (every value a string). */
  body: Record<string, unknown>;
}

// Values stay strings (a custnr "007" must not turn into 7); the `id` attribute of map items
// (campaign `sources`, greeting `used_by`) keeps its name so tests can rebuild the map.
const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

/**
 * A partner's server talking to the management API as the seed shows it: digest credentials over
 * HTTPS, urlencoded writes, and the `.xml` suffix for XML answers.
 */
export class PartnerApi {
  private readonly client: DigestClient;

  constructor(port: number, username: string, password: string) {
    this.client = new DigestClient(port, username, password);
  }

  /** POST/PUT with urlencoded fields (UTF-8), as `curl --digest -d` would send them. */
  async write(
    method: 'POST' | 'PUT',
    path: string,
    fields: Record<string, string>,
    format: Format = 'json',
  ): Promise<ApiAnswer> {
    const result = await this.client.request({
      method,
      path: withFormat(path, format),
      headers: { 'Content-Type': SEED_FORM_CONTENT_TYPE },
      body: new URLSearchParams(fields).toString(),
    });
    return answer(result, format);
  }

  async read(path: string, format: Format = 'json'): Promise<ApiAnswer> {
    return answer(await this.client.request({ method: 'GET', path: withFormat(path, format) }), format);
  }

  async remove(path: string, format: Format = 'json'): Promise<ApiAnswer> {
    return answer(await this.client.request({ method: 'DELETE', path: withFormat(path, format) }), format);
  }

  /** GET of a binary document (a recording), with extra request headers such as `Range`. */
  async download(path: string, headers: Record<string, string> = {}): Promise<HttpResult> {
    return this.client.request({ method: 'GET', path, headers });
  }

  /** GET choosing XML by the Accept header instead of the suffix. */
  async readAccepting(path: string, format: Format): Promise<ApiAnswer> {
    const accept = format === 'xml' ? 'application/xml' : 'application/json';
    return answer(await this.client.request({ method: 'GET', path, headers: { Accept: accept } }), format);
  }
}

/** `/customers/7/campaigns` → `/customers.xml/7/campaigns` (the seed's `/customers.xml/1` form); `/v1/x` → `/v1/x.xml`. */
export function withFormat(path: string, format: Format): string {
  if (format === 'json') return path;
  const [pathname, query] = path.split('?', 2);
  const segments = pathname.split('/');
  // The suffix goes on the resource name, after a version segment when there is one.
  const resource = /^v\d+$/.test(segments[1] ?? '') ? 2 : 1;
  segments[resource] = `${segments[resource]}.xml`;
  return query === undefined ? segments.join('/') : `${segments.join('/')}?${query}`;
}

function answer(result: HttpResult, format: Format): ApiAnswer {
  const contentType = String(result.headers['content-type'] ?? '');
  const xml = contentType.includes('xml');
  if (xml !== (format === 'xml') && result.status < 400) {
    throw new Error(`asked for ${format}, got ${contentType}: ${result.text}`);
  }
  const body = xml
    ? (xmlParser.parse(result.text) as Record<string, unknown>)
    : (result.json() as Record<string, unknown>);
  return { status: result.status, headers: result.headers, text: result.text, body };
}

/** An XML element that may hold one child or several (the parser gives one child as an object). */
export function xmlList<T>(value: unknown): T[] {
  if (value === undefined || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}
