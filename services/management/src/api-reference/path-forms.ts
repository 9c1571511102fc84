type Json = Record<string, unknown>;

/** Methods some partner resource implements; the router answers others 501 (route-table.ts). */
const PLATFORM_METHODS = ['get', 'post', 'put', 'delete'] as const;
const UNIMPLEMENTED_METHODS = ['patch', 'options', 'trace'] as const;
const FORMATS = ['xml', 'json'] as const;
/**
 * Answered by the HTTP app itself before the route table (http-app.ts): another method falls
 * through to the partner API as an unknown path.
 */
const APP_PATHS = new Set(['/health', '/ready', '/metrics']);

/**
 * The served management document: the written one (docs/openapi/management.yaml, each operation
 * once, under its canonical path) plus every other path form the router answers, so a validating
 * proxy or a generated client finds each answer in the document (docs/partner-api.md, Path forms):
 *
 * - the `.xml` and `.json` suffix on the first or the last literal segment of a path
 *   (`/customers.xml/{customer_id}`, `/statistics/cdrs.xml`): path items that refer to their
 *   canonical path;
 * - the query form of a sub-resource (`/customers/campaigns?customer_id=7&campaign_id=2`, seed:
 *   Request conventions 8): operations whose path parameters are query parameters, one per
 *   method, standing for every path of the same literals (with and without the sub id);
 * - the methods a path lacks: `405` with `Allow` for GET, POST, PUT and DELETE, `501` for PATCH,
 *   OPTIONS and TRACE; HEAD wherever GET is (the GET's statuses and headers, no body).
 *
 * Paths whose operations name servers of their own (the switch's, the provider's, the probes) are
 * matched as sent: they have only the other methods (but the probes, which the app answers itself). The `servers` of the written document carry `/v1`
 * and, as a second server, the same address without it.
 */
export function withPathForms(document: Json): Json {
  const paths = document.paths as Record<string, Json>;
  const parameters = ((document.components as Json | undefined)?.parameters ?? {}) as Record<string, Json>;
  const resolveParameter = (parameter: Json): Json =>
    typeof parameter.$ref === 'string'
      ? parameters[parameter.$ref.replace('#/components/parameters/', '')]
      : parameter;
  const out: Record<string, Json> = {};
  const partnerPaths = Object.keys(paths).filter((path) => isPartnerPath(paths[path]));
  for (const [path, item] of Object.entries(paths)) {
    out[path] = typeof item.$ref === 'string' || APP_PATHS.has(path) ? item : withOtherMethods(item);
  }
  // Query forms, grouped by the literal path they share.
  const groups = new Map<string, string[]>();
  for (const path of partnerPaths) {
    const segments = path.split('/').slice(1);
    const firstParam = segments.findIndex(isParameter);
    if (firstParam < 0 || !segments.slice(firstParam).some((segment) => !isParameter(segment))) continue;
    const literal = `/${segments.filter((segment) => !isParameter(segment)).join('/')}`;
    groups.set(literal, [...(groups.get(literal) ?? []), path]);
  }
  for (const [literal, sources] of groups) {
    const item = queryFormItem(
      sources.map((path) => ({ path, item: paths[path] })),
      paths[literal],
      resolveParameter,
    );
    // The other methods are answered so only where the query names the ids (else the path is
    // another one's: `/customers/campaigns` alone is customer "campaigns").
    const ids =
      paths[literal] === undefined
        ? commonIds(
            sources.map((path) => paths[path]),
            resolveParameter,
          )
        : [];
    out[literal] = withOtherMethods(item, ids);
  }
  for (const path of [...partnerPaths, ...groups.keys()]) {
    for (const form of suffixForms(path)) out[form] ??= { $ref: `#/paths/${path.replaceAll('/', '~1')}` };
  }
  return { ...document, paths: out };
}

/** `/customers/{customer_id}/campaigns` → `/customers.xml/…`, `/customers/{customer_id}/campaigns.xml`, and `.json`. */
export function suffixForms(path: string): string[] {
  const segments = path.split('/').slice(1);
  const lastLiteral = segments.findLastIndex((segment) => !isParameter(segment));
  const positions = [...new Set([0, lastLiteral])];
  return FORMATS.flatMap((format) =>
    positions.map(
      (position) =>
        `/${segments.map((segment, index) => (index === position ? `${segment}.${format}` : segment)).join('/')}`,
    ),
  );
}

function isParameter(segment: string): boolean {
  return segment.startsWith('{');
}

function isPartnerPath(item: Json): boolean {
  if (typeof item.$ref === 'string') return false;
  return PLATFORM_METHODS.every((method) => (item[method] as Json | undefined)?.servers === undefined);
}

function operationsOf(item: Json): [string, Json][] {
  return PLATFORM_METHODS.filter((method) => item[method] !== undefined).map((method) => [
    method,
    item[method] as Json,
  ]);
}

/** The path parameters every source path has, as required query parameters. */
function commonIds(items: Json[], resolveParameter: (parameter: Json) => Json): Json[] {
  const idsOf = (item: Json) =>
    [
      ...((item.parameters ?? []) as Json[]),
      ...operationsOf(item).flatMap(([, operation]) => (operation.parameters ?? []) as Json[]),
    ]
      .map(resolveParameter)
      .filter((parameter) => parameter.in === 'path');
  const [first, ...rest] = items.map(idsOf);
  return first
    .filter((parameter) => rest.every((ids) => ids.some((other) => other.name === parameter.name)))
    .filter((parameter, index, all) => all.findIndex((other) => other.name === parameter.name) === index)
    .map((parameter) => ({ ...parameter, in: 'query', required: true }));
}

/** The path item with its 405s, 501s and HEAD (see withPathForms); `ids` go on each added method. */
function withOtherMethods(item: Json, ids: Json[] = []): Json {
  const present = operationsOf(item).map(([method]) => method.toUpperCase());
  const allow = [...present, ...(present.includes('GET') ? ['HEAD'] : [])].join(', ');
  const result: Json = { ...item };
  // A path matched as sent keeps its operations' servers on the methods added to it.
  const servers = operationsOf(item).find(([, operation]) => operation.servers !== undefined)?.[1].servers;
  const on = {
    ...(servers === undefined ? {} : { servers }),
    ...(ids.length === 0 ? {} : { parameters: ids }),
  };
  for (const method of PLATFORM_METHODS) {
    if (item[method] !== undefined) continue;
    result[method] = {
      ...on,
      summary: `${method.toUpperCase()} is not allowed here`,
      description: `The path answers ${allow}; every other method of GET, POST, PUT and DELETE is 405 with \`Allow\`.`,
      'x-scalar-ignore': true,
      responses: { '405': { $ref: '#/components/responses/MethodNotAllowed' } },
    };
  }
  for (const method of UNIMPLEMENTED_METHODS) {
    result[method] = {
      ...on,
      summary: `${method.toUpperCase()} is not implemented`,
      'x-scalar-ignore': true,
      responses: { '501': { $ref: '#/components/responses/NotImplemented' } },
    };
  }
  const get = item.get as Json | undefined;
  if (get !== undefined) {
    const responses = Object.fromEntries(
      Object.entries(get.responses as Record<string, Json>).map(([status, response]) => [
        status,
        typeof response.$ref === 'string' ? response : withoutContent(response),
      ]),
    );
    const { summary, parameters } = get;
    result.head = {
      ...on,
      summary: `${String(summary)} (headers only)`,
      'x-scalar-ignore': true,
      ...(parameters === undefined ? {} : { parameters }),
      responses,
    };
  }
  return result;
}

function withoutContent(response: Json): Json {
  const { content: _content, ...rest } = response;
  return rest;
}

/**
 * One path item for the query form of every source path with the same literals (and the path of
 * those literals itself, when there is one: `/cdrs/outcome` by `call_id`). The router takes the
 * source whose ids the query names all, the one with the most ids first, else the literal path
 * (route-table.ts, rewriteSubResource); so a parameter is required only when every source of the
 * method needs it.
 */
function queryFormItem(
  sources: { path: string; item: Json }[],
  literalItem: Json | undefined,
  resolveParameter: (parameter: Json) => Json,
): Json {
  const all = [
    ...(literalItem === undefined ? [] : [{ path: undefined, item: literalItem }]),
    // The source with the most ids first: its operation describes the form best.
    ...[...sources].sort((a, b) => b.path.split('{').length - a.path.split('{').length),
  ];
  const item: Json = {};
  for (const method of PLATFORM_METHODS) {
    const operations = all
      .filter((source) => source.item[method] !== undefined)
      .map((source) => ({
        path: source.path,
        operation: source.item[method] as Json,
        parameters: [
          ...((source.item.parameters ?? []) as Json[]),
          ...(((source.item[method] as Json).parameters ?? []) as Json[]),
        ].map((parameter) => ({ ...resolveParameter(parameter) })),
      }));
    if (operations.length === 0) continue;
    const byName = new Map<string, { parameter: Json; count: number }>();
    for (const { parameters } of operations) {
      for (const parameter of parameters) {
        const name = String(parameter.name);
        const asQuery = parameter.in === 'path' ? { ...parameter, in: 'query' } : parameter;
        const seen = byName.get(name);
        byName.set(name, { parameter: seen?.parameter ?? asQuery, count: (seen?.count ?? 0) + 1 });
      }
    }
    const merged = [...byName.values()].map(({ parameter, count }) => ({
      ...parameter,
      required: parameter.required === true && count === operations.length,
    }));
    const responses: Record<string, unknown> = {};
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        responses[status] ??= response;
      }
    }
    // A method some source lacks: its ids left out, the router takes one that has no such method.
    if (operations.length < all.length)
      responses['405'] ??= { $ref: '#/components/responses/MethodNotAllowed' };
    const [first] = operations;
    if (first.path === undefined) {
      // The literal path's own operation, which also takes the sources' ids.
      item[method] = { ...first.operation, parameters: merged, responses };
      continue;
    }
    const named = operations.map((entry) => `\`${method.toUpperCase()} ${entry.path}\``);
    item[method] = {
      ...(first.operation.tags === undefined ? {} : { tags: first.operation.tags }),
      summary: `${String(first.operation.summary)} (query form)`,
      description: `${named.join(' or ')} with the path's ids as query parameters (the one whose ids the query names all, the most ids first), docs/partner-api.md, Path forms.`,
      'x-scalar-ignore': true,
      parameters: merged,
      ...(first.operation.requestBody === undefined ? {} : { requestBody: first.operation.requestBody }),
      responses,
    };
  }
  return item;
}
