import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderedDom, visibleText } from '@trackline/test-harness';
import { parse } from 'yaml';
import { rawRequest } from '../test-support/https-request';
import {
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const DOCUMENT_TEXT = readFileSync(join(__dirname, '../../../../docs/openapi/management.yaml'), 'utf8');
const DOCUMENT = parse(DOCUMENT_TEXT) as {
  paths: Record<string, Record<string, { summary?: string } | string>>;
};
const METHODS = new Set(['get', 'post', 'put', 'delete']);

/** The served reference (docs/partner-api.md, API reference): public, over HTTPS, from the repository's document. */
describe('management API reference', () => {
  let stores: TestStores;
  let service: RunningService;

  beforeAll(async () => {
    stores = await createTestStores();
    service = await startTestService(testConfig(stores));
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  const get = (path: string, plain = false) => rawRequest({ port: service.port, method: 'GET', path, plain });

  it('serves the document as YAML and JSON without credentials', async () => {
    const yaml = await get('/openapi.yaml');
    expect([yaml.status, yaml.headers['content-type']]).toEqual([200, 'application/yaml; charset=utf-8']);
    expect(yaml.text).toBe(DOCUMENT_TEXT);
    const json = await get('/openapi.json');
    expect([json.status, json.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(json.json()).toEqual(DOCUMENT);
  });

  it('serves the page and the viewer from the service itself, with no script from elsewhere', async () => {
    const page = await get('/docs');
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'self';.* connect-src 'self';/);
    const sources = [...page.text.matchAll(/<script[^>]*src="([^"]*)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['docs/api-reference.js']);
    const script = await get('/docs/api-reference.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.text).toContain('createApiReference');
  });

  it('refuses plain HTTP like every partner-facing path, and other methods with 405', async () => {
    expect((await get('/docs', true)).status).toBe(403);
    const post = await rawRequest({ port: service.port, method: 'POST', path: '/openapi.json' });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
  });

  it('renders in a browser, listing every operation of the document once', async () => {
    const dom = await renderedDom(`https://127.0.0.1:${service.port}/docs`);
    // The `.xml` forms are path items that refer to their JSON twins: the same operations.
    const operations = Object.entries(DOCUMENT.paths)
      .filter(([, item]) => item.$ref === undefined)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.has(method))
          .map(([method, operation]) => ({
            id: `${method.toUpperCase()} ${path}`,
            summary: (operation as { summary: string }).summary,
          })),
      );
    expect(Object.keys(DOCUMENT.paths).filter((path) => path.includes('.xml')).length).toBeGreaterThan(10);
    // Each sidebar entry names its operation: data-sidebar-id="api-1/tag/<tag>/<METHOD>/<path>".
    const listed = [
      ...dom.matchAll(/data-sidebar-id="[^"]*\/tag\/[^/"]+\/(GET|POST|PUT|DELETE)(\/[^"]*)"/g),
    ].map((match) => `${match[1]} ${match[2]}`);
    expect(listed.sort()).toEqual(operations.map((operation) => operation.id).sort());
    const summaries = operations.map((operation) => operation.summary);
    expect(summaries.length).toBeGreaterThan(40);
    const text = visibleText(dom);
    // One viewer: a second, empty one (the bundle mounts one on `#api-reference`) showed a loading skeleton.
    expect(text.split('Powered by Scalar').length - 1).toBe(1);
    const missing = summaries.filter((summary) => !text.includes(summary.replace(/`/g, '')));
    expect(missing).toEqual([]);
  }, 90_000);
});
