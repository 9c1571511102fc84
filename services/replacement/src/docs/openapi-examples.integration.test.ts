import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { writePartnerProjection } from '@trackline/contracts';
import { providerSignature } from '@trackline/domain';
import { listen } from '@trackline/platform';
import { freePort } from '@trackline/test-harness';
import { parse } from 'yaml';
import { createReplacementApp, type ReplacementApp } from '../app';
import { partnerConfig, projection, silentLogger, sourceRoute, testConfig } from '../test-support/fixtures';
import { partnerSign } from '../test-support/partner-client';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

// Every response example in docs/openapi/replacement.yaml is replayed against the real service: the
// request example of the same name is sent (signed with the documented secret) and the answer must
// equal the example, a UUID in the example standing for any UUID.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const spec = parse(
  readFileSync(join(__dirname, '../../../../docs/openapi/replacement.yaml'), 'utf8'),
) as Json;
const SECRET = 's3cret';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  const path = (node.$ref as string).replace(/^#\//, '').split('/');
  return resolve(path.reduce((at: Json, key) => at[key], spec));
}

interface Case {
  title: string;
  method: string;
  path: string;
  status: number;
  example: Json;
  request: unknown;
  /** text/plain examples (GET /metrics) are checked by their `# TYPE` lines, not replayed byte for byte. */
  contentType: 'application/json' | 'text/plain' | 'text/xml';
}

function collectCases(): Case[] {
  const cases: Case[] = [];
  for (const [path, operations] of Object.entries(spec.paths as Json)) {
    for (const [method, operation] of Object.entries(operations as Json)) {
      // Requests the service must refuse are kept apart (`x-invalid-examples`): they do not match
      // the request schema, and every `examples` entry must (the OpenAPI lint checks it).
      const requestContent = resolve(operation.requestBody ?? {})?.content ?? {};
      const requestMedia =
        requestContent['application/json'] ?? requestContent['application/x-www-form-urlencoded'];
      const requestExamples = { ...requestMedia?.examples, ...requestMedia?.['x-invalid-examples'] };
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        for (const contentType of ['application/json', 'text/plain', 'text/xml'] as const) {
          const examples = resolve(response).content?.[contentType]?.examples ?? {};
          for (const [name, example] of Object.entries(examples as Json)) {
            cases.push({
              title: `${method.toUpperCase()} ${path} ${status} ${name}`,
              method: method.toUpperCase(),
              path,
              status: Number(status),
              example,
              request: requestExamples[name]?.value,
              contentType,
            });
          }
        }
      }
    }
  }
  return cases;
}

function matches(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'string' && UUID.test(expected))
    return typeof actual === 'string' && UUID.test(actual);
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      expected.length === actual.length &&
      expected.every((e, i) => matches(e, actual[i]))
    );
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    const keys = Object.keys(expected);
    return (
      keys.length === Object.keys(actual).length &&
      keys.every((k) => matches((expected as Json)[k], (actual as Json)[k]))
    );
  }
  return expected === actual;
}

describe('OpenAPI examples of the replacement service', () => {
  let target: RedisTarget;
  let app: TestServer;
  let broken: { replacement: ReplacementApp; server: Server; baseUrl: string };

  beforeAll(async () => {
    target = await singleRedisTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
    const acme = partnerConfig('acme', {
      signingSecret: SECRET,
      onExhausted: 'recycle',
      fallbackNumber: '+4721000000',
    });
    const source = sourceRoute({
      sourceId: '101', customerId: '7', destnr: '+4790000001', phonenr: '+4722334455', vmGreetingId: '55',
      altNumbers: [{ phonenr: '+4723456789', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'], fromMinute: 480, toMinute: 960, altKey: 'k1' }],
    }); // prettier-ignore
    const diverting = sourceRoute({
      sourceId: '102', customerId: '7', destnr: '+4790000002', phonenr: '+4722445566', vmGreetingId: '56',
      vmDivertBusy: true, vmDivertNoanswer: true,
    }); // prettier-ignore
    await writePartnerProjection(
      target.redis,
      target.keyPrefix,
      projection(acme, ['+4791000001'], [source, diverting]),
    );
    await writePartnerProjection(
      target.redis,
      target.keyPrefix,
      projection(partnerConfig('nopool', { signingSecret: SECRET }), []),
    );

    // The same app over a Redis address where nothing listens, its client given up at once (so no
    // reconnection timer outlives the file): the 500 and 503 examples. The outage test covers the
    // live reconnecting client.
    const config = testConfig(target.keyPrefix);
    config.redis = { ...config.redis, url: `redis://127.0.0.1:${await freePort()}`, commandTimeoutMs: 100 };
    const replacement = createReplacementApp({ config, logger: silentLogger });
    replacement.redis.disconnect();
    const server = createServer(replacement.handler);
    broken = { replacement, server, baseUrl: `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}` };
  });

  afterAll(async () => {
    await app?.close();
    broken?.server.closeAllConnections();
    await new Promise<void>((done) => (broken ? broken.server.close(() => done()) : done()));
    await target?.close();
  });

  const cases = collectCases();

  it('covers every operation with at least one example', () => {
    const operations = new Set(cases.map((c) => `${c.method} ${c.path}`));
    expect([...operations].sort()).toEqual([
      'GET /health',
      'GET /metrics',
      'GET /ready',
      'POST /',
      'POST /dynamic-numbers',
      'POST /telephony/route',
      'POST /telephony/twilio/dial-result',
      'POST /telephony/twilio/recorded',
      'POST /telephony/twilio/screen',
      'POST /telephony/twilio/voice',
    ]);
  });

  it.each(cases.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
    const baseUrl = c.example['x-redis-down'] === true ? broken.baseUrl : app.baseUrl;
    if (c.path.startsWith('/telephony/twilio/')) {
      // Form fields signed as the provider signs them, for the public URL the test config names.
      const query = c.example['x-query'] === undefined ? '' : `?${c.example['x-query']}`;
      const fields = Object.entries((c.request ?? {}) as Record<string, string>);
      const publicUrl = `${testConfig('').twilio.publicUrl}${c.path}${query}`;
      const token = c.example['x-signing-token'] ?? testConfig('').twilio.authToken;
      const response = await fetch(`${baseUrl}${c.path}${query}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': providerSignature(token, publicUrl, fields),
        },
        body: new URLSearchParams(fields).toString(),
      });
      expect(response.status).toBe(c.status);
      if (c.contentType === 'text/xml') {
        expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
        expect(await response.text()).toBe((c.example.value as string).trim());
      } else {
        expect(await response.json()).toEqual(c.example.value);
      }
      return;
    }
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    let body: string | undefined;
    if (c.method === 'POST') {
      body =
        c.example['x-oversized-body'] === true
          ? JSON.stringify({ advId: 'acme', fullUrl: 'x'.repeat(70_000) })
          : typeof c.request === 'string'
            ? c.request
            : JSON.stringify(c.request);
      expect(body).toBeDefined();
    }
    let url = `${baseUrl}${c.path}`;
    if (c.path === '/telephony/route') {
      headers.Authorization = `Bearer ${c.example['x-token'] ?? 'switch-token'}`;
    } else if (c.method === 'POST') {
      url += `?sign=${partnerSign(c.example['x-secret'] ?? SECRET, body!)}`;
      if (c.example['x-legacy'] !== true) headers['X-HTTP-STATUSES'] = '1';
    }
    const response = await fetch(url, { method: c.method, headers, body });
    expect(response.status).toBe(c.status);
    expect(response.headers.get('server-timing')).toMatch(/^app;dur=/);
    if (c.contentType === 'text/plain') {
      // Counts differ from run to run; the metric families and their types must be as documented.
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await response.text();
      const families = (c.example.value as string).split('\n').filter((line) => line.startsWith('# TYPE '));
      expect(families.length).toBeGreaterThan(0);
      for (const family of families) expect(text).toContain(`${family}\n`);
      return;
    }
    const actual = await response.json();
    if (!matches(c.example.value, actual)) expect(actual).toEqual(c.example.value);
  });
});
