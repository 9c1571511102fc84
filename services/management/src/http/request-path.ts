import type { ResponseFormat } from './request-state';

export const CURRENT_VERSION = 'v1';
const VERSION_SEGMENT = /^v\d+$/i;
const FORMAT_SUFFIX = /\.(xml|json)$/i;

export interface ParsedPath {
  segments: string[];
  /** From a `.xml`/`.json` suffix on a segment (`/customers.xml/1`). */
  format?: ResponseFormat;
  /**
   * Which segment carried the suffix; the route table answers only where it sits on the first or
   * the last literal segment of the route (docs/partner-api.md, Path forms). `'many'` when more
   * than one did, which no route answers.
   */
  suffixAt?: number | 'many';
  unknownVersion?: string;
}

/**
 * `/v1/customers.xml/1` and `/customers/1` (with XML chosen) name the same resource: the current
 * version segment is optional (seed: Versioning), any other version is unknown, and a format
 * suffix may sit on the resource name. A trailing slash is a segment of its own, which no route
 * has: `/customers/` is not `/customers` (docs/partner-api.md, Path forms).
 */
export function parseRequestPath(pathname: string): ParsedPath {
  const segments = pathname.split('/').slice(1);
  let unknownVersion: string | undefined;
  if (segments.length > 0 && VERSION_SEGMENT.test(segments[0])) {
    const version = segments.shift()!;
    if (version !== CURRENT_VERSION) unknownVersion = version;
  }
  let format: ResponseFormat | undefined;
  let suffixAt: number | 'many' | undefined;
  const stripped = segments.map((segment, index) => {
    const match = FORMAT_SUFFIX.exec(segment);
    if (match === null || match.index === 0) return segment;
    format = match[1].toLowerCase() as ResponseFormat;
    suffixAt = suffixAt === undefined ? index : 'many';
    return segment.slice(0, match.index);
  });
  return { segments: stripped, format, suffixAt, unknownVersion };
}

/**
 * Query parameters of a request target; a repeated key keeps its last value. The object has no
 * prototype, so `?__proto__=x` is a parameter like any other (and refused as unknown).
 */
export function parseQuery(target: string): Record<string, string> {
  const index = target.indexOf('?');
  const query = Object.create(null) as Record<string, string>;
  if (index < 0) return query;
  for (const [key, value] of new URLSearchParams(target.slice(index + 1))) query[key] = value;
  return query;
}
