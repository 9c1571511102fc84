import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWithEveryYamlLoader, renderedDom, visibleText } from '@trackline/test-harness';
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

  it('serves the document as YAML and JSON without credentials, on the address it was asked at', async () => {
    const json = await get('/openapi.json');
    expect([json.status, json.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    const served = json.json() as typeof DOCUMENT & { servers: { url: string }[] };
    const base = `https://127.0.0.1:${service.port}`;
    expect(served.servers.map((server) => server.url)).toEqual([`${base}/v1`, base]);
    // Paths matched as sent (the switch's) keep their own server, on the same address.
    expect(JSON.stringify(served)).not.toContain('localhost:8443');
    expect(JSON.stringify(served.paths['/telephony/cdrs'])).toContain(`"servers":[{"url":"${base}"}]`);
    // Every written path is served, with the path forms the router answers besides (path-forms.ts).
    for (const path of Object.keys(DOCUMENT.paths)) expect(served.paths[path]).toBeDefined();
    expect(served.paths['/statistics/cdrs.xml']).toEqual({ $ref: '#/paths/~1statistics~1cdrs' });

    const yaml = await get('/openapi.yaml');
    expect([yaml.status, yaml.headers['content-type']]).toEqual([200, 'application/yaml; charset=utf-8']);
    expect(parse(yaml.text)).toEqual(served);
  });

  it('serves YAML that js-yaml, PyYAML and ruamel.yaml read as the JSON document', async () => {
    const served = (await get('/openapi.json')).json();
    const loaded = loadWithEveryYamlLoader((await get('/openapi.yaml')).text);
    const missing = Object.entries(loaded).filter(([, value]) => value === undefined);
    if (missing.length > 0) {
      const names = missing.map(([name]) => name).join(', ');
      // .ci/run installs python3-yaml and python3-ruamel.yaml; elsewhere their check is skipped.
      if (process.env.CI === 'true') throw new Error(`${names} not installed (python3)`);
      console.warn(`YAML loaders not installed, not checked: ${names}`);
    }
    for (const [name, value] of Object.entries(loaded)) {
      if (value !== undefined) expect([name, value]).toEqual([name, served]);
    }
  }, 60_000);

  it('puts the address the request named in the servers, or MANAGEMENT_PUBLIC_URL for a Host that is no address', async () => {
    const servers = async (host: string) =>
      (
        (
          await rawRequest({
            port: service.port,
            method: 'GET',
            path: '/openapi.json',
            headers: { Host: host },
          })
        ).json() as { servers: { url: string }[] }
      ).servers.map((server) => server.url);
    expect(await servers('api.example.com')).toEqual([
      'https://api.example.com/v1',
      'https://api.example.com',
    ]);
    expect(await servers('[::1]:8443')).toEqual(['https://[::1]:8443/v1', 'https://[::1]:8443']);
    const configured = testConfig(stores).twilio.publicUrl;
    expect(await servers('evil"><script>')).toEqual([`${configured}/v1`, configured]);
    const page = await rawRequest({
      port: service.port,
      method: 'GET',
      path: '/docs',
      headers: { Host: 'api.example.com' },
    });
    expect(page.text).toContain('"url":"https://api.example.com/v1"');
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
    // "Try it" calls the address that served the page; the viewer's developer tools ("Deploy",
    // "Share", "Configure"), which it shows by default on a localhost address, are not there.
    expect(text).toContain(`https://127.0.0.1:${service.port}/v1`);
    expect(dom).not.toContain('localhost:8443');
    for (const tool of ['Developer Tools', 'Deploy', 'Share', 'Configure', 'Scalar Configuration'])
      expect([tool, new RegExp(`\\b${tool}\\b`).test(text)]).toEqual([tool, false]);
  }, 90_000);
});
