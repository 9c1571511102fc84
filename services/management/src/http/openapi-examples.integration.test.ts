import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { partnerKeys } from '@trackline/contracts';
import { parseFormBody, providerSignature } from '@trackline/domain';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { DigestClient } from '../test-support/digest-client';
import { TwilioNumbersSimulator } from '@trackline/test-harness';
import { rawRequest, type HttpResult } from '../test-support/https-request';

const DOCUMENT = join(__dirname, '..', '..', '..', '..', 'docs', 'openapi', 'management.yaml');
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const TELEPHONY_TOKEN = 'switch-token-for-the-examples';
// The provider webhooks (/telephony/twilio/*) are signed as the provider signs them.
const PROVIDER_TOKEN = 'examples-provider-token';
const MANAGEMENT_PUBLIC_URL = 'https://trackline.example.com';
// The carrier examples' account at the Twilio simulator (x-example-conventions).
const CARRIER_ACCOUNT = {
  accountSid: 'AC0123456789abcdef0123456789abcdef',
  authToken: 'example-carrier-auth-token',
};
const TWILIO_BASE_URL = 'https://api.twilio.com';

/** `x-example-request`, and each entry of `x-example-requests` (see `x-example-conventions`). */
interface ExampleRequest {
  summary?: string;
  method: string;
  path: string;
  contentType?: string;
  /** Form text as sent; an object is sent as form fields, or as JSON text (so is an array) with contentType application/json. */
  body?: string | object;
  /** xml: the XML rendering; text: Prometheus text (GET /metrics); twiml: a TwiML answer, compared exactly; audio: its type and size. */
  format?: 'xml' | 'text' | 'twiml' | 'audio';
  /** Signed with X-Twilio-Signature under the provider token, as the provider does (no other credentials). */
  provider?: boolean;
  /** With `provider`: sign under this token instead (a forged request). */
  signingToken?: string;
  /** Sent without credentials (probes, and the 401 examples). */
  anonymous?: boolean;
  /** Sent over plain HTTP to the same port, without credentials. */
  plain?: boolean;
  /** Sent with `Authorization: Bearer <TELEPHONY_TOKEN>` instead of digest (the switch's endpoints). */
  bearer?: boolean;
  /** The status expected; by default the operation's first 2xx response. */
  status?: number;
  /** A named entry of that response's `examples`; by default its `example`. */
  example?: string;
  /** Names kept for later paths and bodies: name → dotted path into the JSON answer. */
  capture?: Record<string, string>;
}

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
}

interface Response {
  $ref?: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId: string;
  'x-example-request'?: ExampleRequest;
  'x-example-requests'?: ExampleRequest[];
  'x-example-variable'?: string[];
  responses: Record<string, Response>;
}

const METHODS = ['get', 'post', 'put', 'delete'];
const spec = parse(readFileSync(DOCUMENT, 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((method) => METHODS.includes(method))
    .map((method) => ({ path, method, operation: item[method] })),
);
// Document order, each operation's main request first: later requests use what earlier ones made.
const steps = operations.flatMap(({ operation }) =>
  [operation['x-example-request'], ...(operation['x-example-requests'] ?? [])]
    .filter((request): request is ExampleRequest => request !== undefined)
    .map((request, index) => ({
      name: `${operation.operationId}${index === 0 ? '' : ` #${index}`}${request.summary ? ` (${request.summary})` : ''}`,
      operation,
      request,
    })),
);

/** Follows a local `$ref` (`#/components/...`). */
function resolve<T>(value: T | { $ref?: string }): T {
  const ref = (value as { $ref?: string }).$ref;
  if (ref === undefined) return value as T;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    // JSON pointer escapes: `#/paths/~1customers` names the path item `/customers`.
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      spec,
    );
  if (target === undefined) throw new Error(`unresolved ${ref}`);
  return resolve(target as T);
}

function documentedExample(operation: Operation, status: number, request: ExampleRequest): unknown {
  const response = operation.responses[String(status)];
  if (response === undefined) throw new Error(`${operation.operationId}: status ${status} is not documented`);
  const type = {
    xml: 'application/xml',
    text: 'text/plain',
    json: 'application/json',
    twiml: 'text/xml',
    audio: 'audio/wav',
  }[request.format ?? 'json'];
  const media = resolve<Response>(response).content?.[type];
  if (request.example === undefined) return media?.example;
  const named = media?.examples?.[request.example];
  if (named === undefined)
    throw new Error(`${operation.operationId}: no example ${request.example} for ${status}`);
  return resolve<{ value?: unknown }>(named).value;
}

function expectedStatus(operation: Operation, request: ExampleRequest): number {
  if (request.status !== undefined) return request.status;
  return Number(Object.keys(operation.responses).find((status) => status.startsWith('2')));
}

/** Same keys, same value types; values equal unless the field is variable. */
function expectSameShape(actual: unknown, example: unknown, variable: Set<string>, where = '$'): void {
  if (example === null || typeof example !== 'object') {
    expect({ where, type: actual === null ? 'null' : typeof actual }).toEqual({
      where,
      type: example === null ? 'null' : typeof example,
    });
    const field = where
      .split('.')
      .pop()!
      .replace(/\[\d+\]$/, '');
    if (!variable.has(field)) expect({ where, value: actual }).toEqual({ where, value: example });
    return;
  }
  if (Array.isArray(example)) {
    expect({ where, array: Array.isArray(actual) }).toEqual({ where, array: true });
    expect({ where, length: (actual as unknown[]).length }).toEqual({ where, length: example.length });
    example.forEach((item, index) =>
      expectSameShape((actual as unknown[])[index], item, variable, `${where}[${index}]`),
    );
    return;
  }
  expect({ where, object: actual !== null && typeof actual === 'object' && !Array.isArray(actual) }).toEqual({
    where,
    object: true,
  });
  const record = actual as Record<string, unknown>;
  expect({ where, keys: Object.keys(record) }).toEqual({ where, keys: Object.keys(example) });
  for (const [key, value] of Object.entries(example))
    expectSameShape(record[key], value, variable, `${where}.${key}`);
}

function maskXml(xml: string, variable: Set<string>): string {
  let masked = xml.trim();
  for (const field of variable)
    masked = masked.replace(new RegExp(`<${field}>[^<]*</${field}>`, 'g'), `<${field}>*</${field}>`);
  return masked;
}

/**
 * Prometheus text: each `# TYPE` line of the example is in the answer; each sample line too, or —
 * for a family listed as variable (counters, process figures) — a sample of the same series.
 */
function expectMetricsText(actual: string, example: string, variable: Set<string>): void {
  const lines = new Set(actual.split('\n'));
  const series = new Set([...lines].map((line) => line.slice(0, line.lastIndexOf(' '))));
  for (const line of example.split('\n').filter((entry) => entry !== '')) {
    if (line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      expect({ line, present: lines.has(line) }).toEqual({ line, present: true });
      continue;
    }
    const name = line.slice(0, line.lastIndexOf(' '));
    const family = name.split('{')[0]!.replace(/_(bucket|sum|count)$/, '');
    const present = variable.has(family) ? series.has(name) : lines.has(line);
    expect({ line, present }).toEqual({ line, present: true });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function at(value: unknown, dottedPath: string): unknown {
  return dottedPath
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

describe('docs/openapi/management.yaml', () => {
  let stores: TestStores;
  let service: RunningService;
  let client: DigestClient;
  /** Captured values, by the name paths and bodies use (`{customer_id}`). */
  const ids: Record<string, string> = {};
  /**
   * Random values the service made (pricing_model_id) → the value the document shows for them, so
   * a later answer that mentions them (a campaign's pricing_model_id, an error message) is
   * compared with the document exactly instead of being waved through as variable.
   */
  const aliases = new Map<string, string>();
  const carrier = new TwilioNumbersSimulator(CARRIER_ACCOUNT);

  beforeAll(async () => {
    await carrier.start();
    carrier.stock({ country: 'US', areaCode: '510', count: 3, locality: 'Oakland', region: 'CA' });
    ids.carrier_base_url = carrier.baseUrl;
    aliases.set(carrier.baseUrl, TWILIO_BASE_URL);
    stores = await createTestStores();
    const now = new Date();
    // What the operator does before the partner starts (docs/operations.md, The operator CLI): the account, a
    // custom source field, two static numbers for sources' destnr and a pool of four for dynamic insertion.
    await createDigestPartner(stores, 'acme', 'correct horse', ['127.0.0.1']);
    await stores.services.partners.defineCustomField('acme', 'source', 'ad_reference');
    await stores.services.numbers.add('acme', 'static', ['+4721000001-+4721000002'], now);
    await stores.services.numbers.add('acme', 'pool', ['+4791000001-+4791000004'], now);
    service = await startTestService(
      // The webhook examples' host is not resolved: the test machine has no public DNS.
      testConfig(stores, {
        TELEPHONY_TOKEN,
        WEBHOOK_INSECURE_HOSTS: 'hooks.example.com',
        TWILIO_AUTH_TOKEN: PROVIDER_TOKEN,
        MANAGEMENT_PUBLIC_URL,
      }),
    );
    client = new DigestClient(service.port, 'acme-api', 'correct horse');
    // One visitor's session holds +4791000002 for the next half hour, as the replacement
    // service's allocation script would record it (score = the instant the number is free again).
    const redis = new Redis(stores.redis.url);
    try {
      await redis.zadd(
        partnerKeys(stores.redis.keyPrefix, 'acme').pool,
        now.getTime() + 1_800_000,
        '+4791000002',
      );
    } finally {
      redis.disconnect();
    }
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
    await carrier.stop();
  });

  function fill(text: string): string {
    return text.replace(/\{(\w+)\}/g, (_match, name: string) => {
      if (ids[name] === undefined) throw new Error(`{${name}} was not captured by an earlier example`);
      return ids[name];
    });
  }

  /**
   * A captured random value becomes the documented one wherever it stands on its own: a whole
   * string, a key, or a word in a text such as an error message (not inside a longer number).
   */
  function translate(value: unknown): unknown {
    if (typeof value === 'string') {
      let text = value;
      for (const [real, documented] of aliases) {
        text = text.replace(
          new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(real)}(?![A-Za-z0-9])`, 'g'),
          documented,
        );
      }
      return text;
    }
    if (Array.isArray(value)) return value.map(translate);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [aliases.get(key) ?? key, translate(item)]),
      );
    }
    return value;
  }

  /** Placeholders filled in every string; an object body is sent as JSON or as form fields. */
  function encodeBody(request: ExampleRequest): string | undefined {
    if (request.body === undefined || typeof request.body === 'string')
      return request.body && fill(request.body);
    const filled = JSON.parse(JSON.stringify(request.body), (_key, value: unknown) =>
      typeof value === 'string' ? fill(value) : value,
    ) as Record<string, string>;
    return request.contentType === 'application/json'
      ? JSON.stringify(filled)
      : new URLSearchParams(filled).toString();
  }

  function send(request: ExampleRequest): Promise<HttpResult> {
    const path = fill(request.path);
    const body = encodeBody(request);
    const headers: Record<string, string> = request.contentType
      ? { 'Content-Type': request.contentType }
      : {};
    if (request.bearer) headers.Authorization = `Bearer ${TELEPHONY_TOKEN}`;
    if (request.provider) {
      const fields = parseFormBody(body ?? '') ?? [];
      headers['X-Twilio-Signature'] = providerSignature(
        request.signingToken ?? PROVIDER_TOKEN,
        `${MANAGEMENT_PUBLIC_URL}${path}`,
        fields,
      );
    }
    return request.anonymous || request.bearer || request.plain || request.provider
      ? rawRequest({ port: service.port, method: request.method, path, headers, body, plain: request.plain })
      : client.request({ method: request.method, path, headers, body });
  }

  it('is OpenAPI 3.1 and gives every operation an example request and a success example', () => {
    expect(spec.openapi).toBe('3.1.0');
    for (const { path, method, operation } of operations) {
      expect({ path, method, request: operation['x-example-request'] !== undefined }).toEqual({
        path,
        method,
        request: true,
      });
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      const media = Object.values(resolve<Response>(success?.[1] ?? {}).content ?? {});
      const examples = media.filter((entry) => entry.example !== undefined || entry.examples !== undefined);
      expect({ path, method, examples: examples.length > 0 }).toEqual({ path, method, examples: true });
    }
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    };
    walk(spec);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(() => resolve({ $ref: ref })).not.toThrow();
  });

  it.each(steps.map((step) => [step.name, step] as const))(
    '%s: the documented response matches a real one',
    async (_name, step) => {
      const { operation, request } = step;
      const result = await send(request);
      const status = expectedStatus(operation, request);
      expect({ status: result.status, body: result.status === status ? '' : result.text }).toEqual({
        status,
        body: '',
      });
      const example = documentedExample(operation, status, request);
      expect(example).toBeDefined();
      const variable = new Set(operation['x-example-variable'] ?? []);
      if (request.format === 'text') {
        expect(result.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
        expectMetricsText(result.text, example as string, variable);
        return;
      }
      if (request.format === 'twiml') {
        expect(result.headers['content-type']).toBe('text/xml; charset=utf-8');
        expect(result.text).toBe((example as string).trim());
        return;
      }
      if (request.format === 'audio') {
        expect(result.headers['content-type']).toBe('audio/wav');
        expect(Number(result.headers['content-length'])).toBe(
          Buffer.from(example as string, 'base64').length,
        );
        return;
      }
      if (request.format === 'xml') {
        expect(result.text.startsWith(XML_HEAD)).toBe(true);
        expect(maskXml(translate(result.text.slice(XML_HEAD.length)) as string, variable)).toBe(
          maskXml(example as string, variable),
        );
        return;
      }
      const json = result.json();
      // Captured first, so one wrong example does not also fail every step after it.
      for (const [name, path] of Object.entries(request.capture ?? {})) {
        const value = at(json, path);
        expect({ name, type: typeof value }).toEqual({ name, type: 'string' });
        ids[name] = value as string;
        // Only values the document calls variable (UUIDs, PINs) get an alias; decimal ids are not
        // variable, as a fresh database numbers them the way the document shows.
        const documented = at(example, path);
        if (variable.has(path.split('.').pop()!) && typeof documented === 'string')
          aliases.set(value as string, documented);
      }
      expectSameShape(translate(json), example, variable);
    },
  );
});
