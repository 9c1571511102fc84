import { API_REFERENCE_PATHS } from '@trackline/platform';
import { checkManagementAnswer } from '../test-support/api-contract';
import { DigestClient } from '../test-support/digest-client';
import { rawRequest } from '../test-support/https-request';
import { parseQuery, parseRequestPath } from '../http/request-path';
import type { AnyRouteDefinition, RouteDefinition } from '../http/route-definition';
import { RouteTable } from '../http/route-table';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

type Json = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'delete', 'head', 'patch', 'options', 'trace'];
/** The reference's own routes serve the document; docs/partner-api.md, API reference, lists them. */
const REFERENCE_PATHS = new Set<string>(Object.values(API_REFERENCE_PATHS));

/**
 * Every path form the router answers is a path of the served document, and every operation of the
 * served document is answered by the router as documented (docs/partner-api.md, Path forms): a
 * validating proxy in front of the service finds no answer outside the document.
 */
describe('path forms of the served management document', () => {
  let stores: TestStores;
  let service: RunningService;
  let document: Json;
  let routes: readonly AnyRouteDefinition[];
  let router: (method: string, target: string) => string;

  beforeAll(async () => {
    stores = await createTestStores();
    service = await startTestService(testConfig(stores));
    routes = service.app.routes.filter((route) => !REFERENCE_PATHS.has(route.path));
    document = (
      await rawRequest({ port: service.port, method: 'GET', path: '/openapi.json' })
    ).json() as Json;
    router = routerOf(service.app.routes);
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  const paths = () => document.paths as Record<string, Json>;
  const resolve = (item: Json): Json =>
    typeof item.$ref === 'string' ? paths()[item.$ref.slice('#/paths/'.length).replaceAll('~1', '/')] : item;
  /** The document's path a request path falls under: a literal beats a parameter, as OpenAPI has it. */
  const documented = (pathname: string): string | undefined =>
    Object.keys(paths())
      .filter((template) => templatePattern(template).test(pathname))
      .sort((a, b) => literalLength(b) - literalLength(a))[0];
  const operation = (pathname: string, method: string): Json | undefined => {
    const template = documented(pathname);
    return template === undefined ? undefined : (resolve(paths()[template])[method] as Json | undefined);
  };

  it('lists every form the router answers, with the route’s method', () => {
    const missing: string[] = [];
    for (const route of routes) {
      for (const target of requestForms(route)) {
        const answer = router(route.method, target);
        if (answer === '404') continue;
        const pathname = target.split('?')[0];
        const documentPath = isEdge(route) ? pathname : pathname.replace(/^\/v1(?=\/)/, '');
        const found = operation(documentPath, route.method.toLowerCase());
        if (found === undefined || !hasSuccess(found)) missing.push(`${route.method} ${target} (${answer})`);
      }
    }
    expect(missing).toEqual([]);
    expect(routes.length).toBeGreaterThan(60);
  });

  it('has no operation the router does not answer as documented', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [template, item] of Object.entries(paths())) {
      if (['/health', '/ready', '/metrics'].includes(template)) continue;
      for (const method of METHODS) {
        const found = resolve(item)[method] as Json | undefined;
        if (found === undefined) continue;
        const target = exampleTarget(template, found, resolveParameter(document));
        const expected = expectedAnswer(found, method);
        const answer = router(method.toUpperCase(), target);
        checked += 1;
        if (!expected.test(answer))
          wrong.push(`${method.toUpperCase()} ${target}: ${answer}, documented ${expected.source}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });

  it('refuses the forms it does not list: a trailing slash, a suffix on an id, two suffixes', () => {
    for (const target of [
      '/customers/',
      '/v1/customers/1/',
      '/customers/1.xml',
      '/customers.xml/1/campaigns.xml',
      '/customers/1/reports.xml/monthly',
      '/telephony/cdrs/',
      '/docs/',
    ]) {
      expect([target, router('GET', target)]).toEqual([target, '404']);
      expect([target, documented(target.replace(/^\/v1/, '')) ?? 'none']).not.toEqual([target, target]);
    }
  });

  describe('answers over HTTPS, each held to the served document', () => {
    let client: DigestClient;

    beforeAll(async () => {
      await createDigestPartner(stores, 'forms', 'forms-password-1', ['127.0.0.1']);
      client = new DigestClient(service.port, 'forms-api', 'forms-password-1');
      const created = await client.request({
        method: 'POST',
        path: '/customers',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Forms AS', custnr: 'F-1' }),
      });
      customerId = (created.json() as { customers: { customer_id: string }[] }).customers[0].customer_id;
    });
    let customerId: string;

    it.each([
      ['GET', '/v1/miscellaneous/ping.xml', 200],
      ['GET', '/v1/statistics/cdrs.xml?custnr=F-1&from_date=2025-03-14&to_date=2025-03-15', 200],
      ['GET', '/v1/customers/{id}/reports/monthly.xml?month=2025-03', 200],
      ['GET', '/v1/customers/reports/monthly?customer_id={id}&month=2025-03', 200],
      ['DELETE', '/v1/miscellaneous/ping', 405],
      ['PATCH', '/v1/customers', 501],
      ['GET', '/v1/customers/', 404],
    ])('%s %s answers %i, a status its served path documents', async (method, path, status) => {
      const target = path.replace('{id}', customerId);
      const answer = await client.request({ method, path: target });
      expect(answer.status).toBe(status);
      if (status === 404) {
        expect(documented(target.split('?')[0].replace(/^\/v1/, ''))).not.toBe(target.split('?')[0]);
        return;
      }
      const pathname = target.split('?')[0].replace(/^\/v1/, '');
      const found = operation(pathname, method.toLowerCase());
      expect(Object.keys((found?.responses ?? {}) as Json)).toContain(String(status));
      checkManagementAnswer({
        method,
        target,
        status: answer.status,
        headers: answer.headers,
        body: answer.text,
      });
    });
  });
});

/** The route tables as mount-routes.ts builds them, answering what a request would get. */
function routerOf(definitions: readonly AnyRouteDefinition[]): (method: string, target: string) => string {
  const partner = new RouteTable(
    definitions.filter(
      (route): route is RouteDefinition => route.access === undefined || route.access === 'partner',
    ),
  );
  const edge = new RouteTable(
    definitions.filter((route) => route.access !== undefined && route.access !== 'partner'),
    { queryForm: false },
  );
  return (method, target) => {
    const pathname = target.split('?')[0];
    const query = parseQuery(target);
    try {
      const segments = pathname.split('/').slice(1);
      if (edge.onPath(segments).length > 0) {
        const match = edge.match(method, segments, query);
        return `${match.definition.method} ${match.definition.path}`;
      }
      const parsed = parseRequestPath(pathname);
      if (parsed.unknownVersion !== undefined) return '404';
      const match = partner.match(method, parsed.segments, query, parsed.suffixAt);
      return `${match.definition.method} ${match.definition.path}`;
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 400) return 'matched (400 for the sample id)';
      return String(status ?? error);
    }
  };
}

function isEdge(route: AnyRouteDefinition): boolean {
  return route.access !== undefined && route.access !== 'partner';
}

/** The request paths a partner might send for a route: every segment suffixed, slashes, the query form. */
function requestForms(route: AnyRouteDefinition): string[] {
  const segments = route.path.split('/').slice(1);
  const filled = segments.map((segment) => (segment.startsWith(':') ? '1' : segment));
  const path = (parts: string[]) => `/${parts.join('/')}`;
  const forms = [path(filled), `${path(filled)}/`];
  if (isEdge(route)) return forms;
  forms.push(`/v1${path(filled)}`);
  for (const [index] of filled.entries()) {
    for (const format of ['xml', 'json']) {
      forms.push(path(filled.map((part, at) => (at === index ? `${part}.${format}` : part))));
    }
  }
  forms.push(path(filled.map((part) => `${part}.xml`)));
  const params = segments.filter((segment) => segment.startsWith(':'));
  const literals = segments.filter((segment) => !segment.startsWith(':'));
  const firstParam = segments.findIndex((segment) => segment.startsWith(':'));
  if (firstParam >= 0 && segments.slice(firstParam).some((segment) => !segment.startsWith(':'))) {
    const query = params.map((param) => `${snake(param.slice(1))}=1`).join('&');
    for (const [index] of literals.entries()) {
      forms.push(`${path(literals)}?${query}`);
      forms.push(`${path(literals.map((part, at) => (at === index ? `${part}.xml` : part)))}?${query}`);
    }
  }
  return forms;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function templatePattern(template: string): RegExp {
  return new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );
}

function literalLength(template: string): number {
  return template.replace(/\{[^}]+\}/g, '').length;
}

function hasSuccess(operation: Json): boolean {
  return Object.keys(operation.responses as Json).some((status) => status.startsWith('2'));
}

function resolveParameter(document: Json): (parameter: Json) => Json {
  const components = ((document.components as Json).parameters ?? {}) as Record<string, Json>;
  return (parameter) =>
    typeof parameter.$ref === 'string'
      ? components[parameter.$ref.replace('#/components/parameters/', '')]
      : parameter;
}

/** A request for the operation: every path parameter `1`, every required query parameter `1`. */
function exampleTarget(template: string, operation: Json, resolve: (parameter: Json) => Json): string {
  const path = template.replace(/\{[^}]+\}/g, '1');
  const query = ((operation.parameters ?? []) as Json[])
    .map(resolve)
    .filter((parameter) => parameter.in === 'query' && parameter.required === true)
    .map((parameter) => `${String(parameter.name)}=1`);
  const versioned = operation.servers === undefined ? `/v1${path}` : path;
  return query.length === 0 ? versioned : `${versioned}?${query.join('&')}`;
}

/** What the router must answer for a documented operation: its route (of the method), or 405 or 501. */
function expectedAnswer(operation: Json, method: string): RegExp {
  const statuses = Object.keys(operation.responses as Json);
  if (!hasSuccess(operation) && statuses.includes('405')) return /^405$/;
  if (!hasSuccess(operation) && statuses.includes('501')) return /^501$/;
  const routed = method === 'head' ? 'GET' : method.toUpperCase();
  return new RegExp(`^(${routed} /|matched)`);
}
