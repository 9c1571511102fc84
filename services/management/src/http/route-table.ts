import { NotFoundError, ValidationError } from '@trackline/domain';
import { MethodNotAllowedError, NotImplementedError } from './http-errors';
import type { HttpMethod } from './route-definition';

/** Every method some resource implements; others (PATCH, OPTIONS, …) are 501 everywhere. */
export const PLATFORM_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

type Segment = { literal: string } | { param: string; queryKey: string };

/** What the table needs of a route definition. */
export interface RoutePattern {
  method: HttpMethod;
  path: string;
}

interface CompiledRoute<T extends RoutePattern> {
  definition: T;
  segments: Segment[];
  literals: number;
  /** Index of the last literal segment. */
  lastLiteral: number;
  /** Has a literal after a parameter: `/customers/:customerId/campaigns…`. */
  isSubResource: boolean;
}

export interface RouteMatch<T extends RoutePattern> {
  definition: T;
  params: Record<string, string>;
  /** The query without the keys the sub-resource rewrite turned into path parameters. */
  query: Record<string, string>;
}

/**
 * Finds the operation for a method and version-less path. A sub-resource is reachable both as
 * `/customers/7/campaigns/3` and as `/customers/campaigns?customer_id=7&campaign_id=3` (seed:
 * Request conventions 8): for every route with a literal after a parameter, the path without its
 * parameters, plus the parameters as query keys (snake_case of the parameter name), maps onto it
 * (`queryForm: false` turns that off, for the switch's and the provider's fixed URLs).
 */
export class RouteTable<T extends RoutePattern> {
  private readonly routes: CompiledRoute<T>[];

  constructor(
    definitions: readonly T[],
    private readonly options: { queryForm: boolean } = { queryForm: true },
  ) {
    this.routes = definitions.map((definition) => compile(definition));
    const seen = new Set<string>();
    for (const route of this.routes) {
      const key = `${route.definition.method} ${shape(route.segments)}`;
      if (seen.has(key)) throw new Error(`two routes for ${key}`);
      seen.add(key);
    }
  }

  /**
   * The routes whose path the segments name, whatever their method. Literals are compared as sent
   * (still percent-encoded) and nothing is decoded, so asking never refuses a request: a malformed
   * escape is answered by `match`, on the routes it concerns.
   */
  onPath(rawSegments: string[]): T[] {
    return this.routes
      .filter((route) => bind(route, rawSegments) !== undefined)
      .map((route) => route.definition);
  }

  /**
   * `suffixAt` is the segment that carried a `.xml`/`.json` suffix (request-path.ts): a route
   * answers it on its first or its last literal segment only, the forms the document lists
   * (docs/partner-api.md, Path forms); on an id or a middle segment the path is unknown.
   */
  match(
    method: string,
    rawSegments: string[],
    query: Record<string, string>,
    suffixAt?: number | 'many',
  ): RouteMatch<T> {
    const rewritten = this.options.queryForm ? this.rewriteSubResource(rawSegments, query) : undefined;
    const segments = (rewritten?.segments ?? rawSegments).map(decodeSegment);
    const remainingQuery = rewritten?.query ?? query;
    // The query form's segments are all literals: the suffix may sit on its first or its last.
    const suffixFits = (route: CompiledRoute<T>): boolean =>
      suffixAt === undefined ||
      (suffixAt !== 'many' &&
        (rewritten === undefined
          ? suffixAt === 0 || suffixAt === route.lastLiteral
          : suffixAt === 0 || suffixAt === rawSegments.length - 1) &&
        (rewritten !== undefined || 'literal' in route.segments[suffixAt]));
    const candidates = this.routes
      .filter(suffixFits)
      .map((route) => ({ route, params: bind(route, segments) }))
      .filter(
        (entry): entry is { route: CompiledRoute<T>; params: Record<string, string> } =>
          entry.params !== undefined,
      );
    if (candidates.length === 0) throw new NotFoundError(`Resource /${rawSegments.join('/')}`);
    // A literal beats a parameter: `/customers/campaigns` is not customer "campaigns".
    const best = Math.max(...candidates.map((entry) => entry.route.literals));
    const onPath = candidates.filter((entry) => entry.route.literals === best);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = onPath.find((entry) => entry.route.definition.method === wanted);
    if (hit !== undefined)
      return { definition: hit.route.definition, params: hit.params, query: remainingQuery };
    if (!(PLATFORM_METHODS as readonly string[]).includes(wanted)) {
      throw new NotImplementedError(`Method ${method} is not implemented`);
    }
    const allow = PLATFORM_METHODS.filter((m) => onPath.some((entry) => entry.route.definition.method === m));
    throw new MethodNotAllowedError(allow.includes('GET') ? [...allow, 'HEAD'] : allow);
  }

  private rewriteSubResource(
    rawSegments: string[],
    query: Record<string, string>,
  ): { segments: string[]; query: Record<string, string> } | undefined {
    let chosen: { route: CompiledRoute<T>; params: number } | undefined;
    for (const route of this.routes) {
      if (!route.isSubResource) continue;
      const literals = route.segments.filter(
        (segment): segment is { literal: string } => 'literal' in segment,
      );
      const params = route.segments.filter(
        (segment): segment is { param: string; queryKey: string } => 'param' in segment,
      );
      if (literals.length !== rawSegments.length) continue;
      if (!literals.every((segment, index) => segment.literal === decodeSegment(rawSegments[index])))
        continue;
      if (!params.every((segment) => query[segment.queryKey] !== undefined && query[segment.queryKey] !== ''))
        continue;
      if (chosen === undefined || params.length > chosen.params) chosen = { route, params: params.length };
    }
    if (chosen === undefined) return undefined;
    const rest = { ...query };
    const segments = chosen.route.segments.map((segment) => {
      if ('literal' in segment) return encodeURIComponent(segment.literal);
      delete rest[segment.queryKey];
      return encodeURIComponent(query[segment.queryKey]);
    });
    return { segments, query: rest };
  }
}

function compile<T extends RoutePattern>(definition: T): CompiledRoute<T> {
  const segments: Segment[] = definition.path
    .split('/')
    .slice(1)
    .map((part) =>
      part.startsWith(':') ? { param: part.slice(1), queryKey: snakeCase(part.slice(1)) } : { literal: part },
    );
  const firstParam = segments.findIndex((segment) => 'param' in segment);
  return {
    definition,
    segments,
    literals: segments.filter((segment) => 'literal' in segment).length,
    lastLiteral: segments.findLastIndex((segment) => 'literal' in segment),
    isSubResource: firstParam >= 0 && segments.slice(firstParam).some((segment) => 'literal' in segment),
  };
}

function bind<T extends RoutePattern>(
  route: CompiledRoute<T>,
  segments: string[],
): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of route.segments.entries()) {
    const value = segments[index];
    if ('literal' in segment) {
      if (segment.literal !== value) return undefined;
    } else {
      if (value === '') return undefined;
      params[segment.param] = value;
    }
  }
  return params;
}

function shape(segments: Segment[]): string {
  return `/${segments.map((segment) => ('literal' in segment ? segment.literal : ':')).join('/')}`;
}

/** customerId → customer_id, vmGreetingId → vm_greeting_id; snake_case names stay as they are. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError(
      'path',
      `segment ${JSON.stringify(segment)} is not valid percent-encoded UTF-8`,
    );
  }
}
