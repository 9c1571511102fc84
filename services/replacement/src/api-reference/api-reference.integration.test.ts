import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWithEveryYamlLoader, renderedDom, visibleText } from '@trackline/test-harness';
import { parse } from 'yaml';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

const DOCUMENT_TEXT = readFileSync(join(__dirname, '../../../../docs/openapi/replacement.yaml'), 'utf8');
const DOCUMENT = parse(DOCUMENT_TEXT) as { paths: Record<string, Record<string, { summary?: string }>> };

/** The served reference (docs/number-replacement.md, API reference): public, from the repository's document. */
describe('replacement API reference', () => {
  let target: RedisTarget;
  let server: TestServer;

  beforeAll(async () => {
    target = await singleRedisTarget();
    server = await startTestServer(target.redis, target.keyPrefix);
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('serves the document as YAML and JSON, its server the address it was asked at', async () => {
    const json = await fetch(`${server.baseUrl}/openapi.json`);
    expect([json.status, json.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    const served = (await json.json()) as typeof DOCUMENT & { servers: { url: string }[] };
    expect({ ...served, servers: undefined }).toEqual({ ...DOCUMENT, servers: undefined });
    expect(served.servers.map((entry) => entry.url)).toEqual([server.baseUrl]);
    const yaml = await fetch(`${server.baseUrl}/openapi.yaml`);
    expect([yaml.status, yaml.headers.get('content-type')]).toEqual([200, 'application/yaml; charset=utf-8']);
    const loaded = loadWithEveryYamlLoader(await yaml.text());
    for (const [name, value] of Object.entries(loaded)) {
      if (value === undefined) {
        // .ci/run installs python3-yaml and python3-ruamel.yaml; elsewhere their check is skipped.
        if (process.env.CI === 'true') throw new Error(`${name} not installed (python3)`);
        console.warn(`YAML loader not installed, not checked: ${name}`);
      } else expect([name, value]).toEqual([name, served]);
    }
  }, 60_000);

  it('serves the page and the viewer itself, and answers other methods with 405', async () => {
    const page = await fetch(`${server.baseUrl}/docs`);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self';.* connect-src 'self';/);
    expect([...html.matchAll(/<script[^>]*src="([^"]*)"/g)].map((match) => match[1])).toEqual([
      'docs/api-reference.js',
    ]);
    const script = await fetch(`${server.baseUrl}/docs/api-reference.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('createApiReference');
    const post = await fetch(`${server.baseUrl}/docs`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('renders in a browser, listing every operation of the document', async () => {
    const text = visibleText(await renderedDom(`${server.baseUrl}/docs`));
    // One viewer: a second, empty one (the bundle mounts one on `#api-reference`) showed a loading skeleton.
    expect(text.split('Powered by Scalar').length - 1).toBe(1);
    const summaries = Object.values(DOCUMENT.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post'].includes(method))
        .map(([, operation]) => operation.summary!.replace(/`/g, '')),
    );
    expect(summaries.length).toBeGreaterThan(5);
    expect(summaries.filter((summary) => !text.includes(summary))).toEqual([]);
    // "Try it" calls the address that served the page; the viewer's developer tools are not shown.
    expect(text).toContain(server.baseUrl);
    for (const tool of ['Developer Tools', 'Deploy', 'Share', 'Configure', 'Scalar Configuration'])
      expect([tool, new RegExp(`\\b${tool}\\b`).test(text)]).toEqual([tool, false]);
  }, 90_000);
});
