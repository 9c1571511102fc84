import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createTestStores, startTestService, testConfig, type RunningService, type TestStores } from './test-support/test-service';
import { DigestClient } from './test-support/digest-client';
import { rawRequest, type HttpResult } from './test-support/https-request';

const DOCUMENT = join(__dirname, '..', '..', '..', '..', 'docs', 'openapi', 'management.yaml');
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

interface ExampleRequest {
  method: string;
  path: string;
  contentType?: string;
  body?: string;
  format?: 'xml';
  anonymous?: boolean;
}

interface Operation {
  operationId: string;
  'x-example-request'?: ExampleRequest;
  'x-example-variable'?: string[];
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

const METHODS = ['get', 'post', 'put', 'delete'];
const spec = parse(readFileSync(DOCUMENT, 'utf8')) as { openapi: string; paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((method) => METHODS.includes(method))
    .map((method) => ({ path, method, operation: item[method] })),
);

/** Same keys, same value types; values equal unless the field is variable (ids, uuids). */
function expectSameShape(actual: unknown, example: unknown, variable: Set<string>, where = '$'): void {
  if (example === null || typeof example !== 'object') {
    expect({ where, type: actual === null ? 'null' : typeof actual }).toEqual({ where, type: example === null ? 'null' : typeof example });
    const field = where.split('.').pop()!;
    if (!variable.has(field)) expect({ where, value: actual }).toEqual({ where, value: example });
    return;
  }
  if (Array.isArray(example)) {
    expect(Array.isArray(actual)).toBe(true);
    expect({ where, length: (actual as unknown[]).length }).toEqual({ where, length: example.length });
    example.forEach((item, index) => expectSameShape((actual as unknown[])[index], item, variable, `${where}[${index}]`));
    return;
  }
  expect(actual !== null && typeof actual === 'object' && !Array.isArray(actual)).toBe(true);
  const record = actual as Record<string, unknown>;
  expect({ where, keys: Object.keys(record) }).toEqual({ where, keys: Object.keys(example) });
  for (const [key, value] of Object.entries(example)) expectSameShape(record[key], value, variable, `${where}.${key}`);
}

function maskXml(xml: string, variable: Set<string>): string {
  let masked = xml.trim();
  for (const field of variable) masked = masked.replace(new RegExp(`<${field}>[^<]*</${field}>`, 'g'), `<${field}>*</${field}>`);
  return masked;
}

describe('docs/openapi/management.yaml', () => {
  let stores: TestStores;
  let service: RunningService;
  let client: DigestClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stores = await createTestStores();
    await stores.services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'correct horse',
      signingSecret: 'sixteen-chars-ok',
      allowIps: ['127.0.0.1'],
    });
    service = await startTestService(testConfig(stores));
    client = new DigestClient(service.port, 'acme-api', 'correct horse');
  });

  afterAll(async () => {
    await service.close();
    await stores.release();
  });

  it('is OpenAPI 3.1 and gives every operation an example request and a success example', () => {
    expect(spec.openapi).toBe('3.1.0');
    for (const { path, method, operation } of operations) {
      expect({ path, method, request: operation['x-example-request'] !== undefined }).toEqual({ path, method, request: true });
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      const examples = Object.values(success?.[1].content ?? {}).filter((media) => media.example !== undefined);
      expect({ path, method, examples: examples.length > 0 }).toEqual({ path, method, examples: true });
    }
  });

  // In document order: the POST creates the customer the later examples use.
  it.each(operations.map((entry) => [entry.operation.operationId, entry] as const))(
    '%s: the example response matches a real response',
    async (_id, { operation }) => {
      const example = operation['x-example-request']!;
      const path = example.path.replace(/\{(\w+)\}/g, (_match, name: string) => ids[name]);
      const headers: Record<string, string> = example.contentType ? { 'Content-Type': example.contentType } : {};
      const result: HttpResult = example.anonymous
        ? await rawRequest({ port: service.port, method: example.method, path, headers, body: example.body })
        : await client.request({ method: example.method, path, headers, body: example.body });
      const documented = operation.responses[String(result.status)];
      expect({ status: result.status, documented: documented !== undefined }).toEqual({ status: result.status, documented: true });
      const variable = new Set(operation['x-example-variable'] ?? []);
      if (example.format === 'xml') {
        const xml = documented.content?.['application/xml']?.example as string;
        expect(result.text.startsWith(XML_HEAD)).toBe(true);
        expect(maskXml(result.text.slice(XML_HEAD.length), variable)).toBe(maskXml(xml, variable));
      } else {
        const json = result.json();
        expectSameShape(json, documented.content?.['application/json']?.example, variable);
        const customers = (json as { customers?: Array<Record<string, string>> }).customers;
        if (operation.operationId === 'createCustomer' && customers) ids.customer_id = customers[0].customer_id;
      }
    },
  );
});
