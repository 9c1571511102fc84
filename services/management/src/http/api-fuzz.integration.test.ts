import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { parse } from 'yaml';
import { DigestClient } from '../test-support/digest-client';
import { rawRequest, type HttpResult } from '../test-support/https-request';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

/**
 * The API fuzzer (docs/testing.md, API fuzzing): for every operation of
 * docs/openapi/management.yaml, property-based requests with valid credentials and hostile values
 * in its path, query and body fields, against the real started service. Any 5xx, any 400 that does
 * not name a field and any XML that is not well-formed fails (a request that hangs fails by the
 * test's timeout).
 * FUZZ_SEED and FUZZ_RUNS (runs per operation) widen it locally; CI runs the fixed seed.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const TOKEN = 'fuzz-switch-token';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const spec = parse(readFileSync(join(__dirname, '../../../../docs/openapi/management.yaml'), 'utf8')) as Json;

function resolve(node: Json | undefined): Json {
  let current = node ?? {};
  while (typeof current.$ref === 'string') {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce((at: Json, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return current;
}

/** Property names a schema declares (through $ref and allOf). */
function fieldsOf(schema: Json | undefined): string[] {
  const resolved = resolve(schema);
  const own = Object.keys(resolved.properties ?? {});
  const composed = ((resolved.allOf ?? []) as Json[]).flatMap((part) => fieldsOf(part));
  return [...new Set([...own, ...composed])];
}

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  /** The documented request, which the fuzzer mutates a field or two at a time. */
  exampleBody: Array<[string, unknown]>;
  exampleQuery: Array<[string, string]>;
  telephony: boolean;
}

function exampleOf(media: Json | undefined): Json | undefined {
  if (media === undefined) return undefined;
  const value = media.example ?? (Object.values(media.examples ?? {})[0] as Json | undefined)?.value;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

const operations: Operation[] = Object.entries(spec.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => ['get', 'post', 'put', 'delete'].includes(method))
    .map(([method, operation]: [string, Json]) => {
      const parameters = ((operation.parameters ?? []) as Json[]).map(resolve);
      const media = resolve(operation.requestBody).content ?? {};
      const schema = (media['application/json'] ?? media['application/x-www-form-urlencoded'])?.schema;
      const example =
        exampleOf(media['application/json']) ?? exampleOf(media['application/x-www-form-urlencoded']);
      const examplePath = String((operation['x-example-request'] as Json | undefined)?.path ?? '');
      return {
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name as string),
        bodyFields: fieldsOf(schema),
        exampleBody: Object.entries(example ?? {}),
        exampleQuery: [...new URLSearchParams(examplePath.split('?')[1] ?? '')],
        telephony: path.startsWith('/telephony/'),
      };
    }),
);

// Hostile values: control characters, NUL, lone surrogates, huge and deep values, wrong types,
// extreme dates and pages, prototype names.
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u0001\u001b\ufffe', '<![CDATA[', '&amp;<'),
  fc.constantFrom('a\u0000b', 'x\ud800', 'valid@example.no\udc00'),
  fc.constantFrom('0000-01-01', '9999-12-31', '10000-01-01', '2026-02-30', '0000-00-00 00:00:00', '-1'),
  fc.constantFrom('999999999999999999999', '1e308', 'NaN', '-0', '0x10', ' 1', '1.5', ''),
  fc.constant('x'.repeat(20_000)),
  fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'),
  fc.string({ maxLength: 12 }),
);
const validish = fc.constantFrom('1', '0', '2', 'mon,tue', '08:00', '2026-03-02', '+4722334455', 'a@b.no');
const deep = fc.integer({ min: 1, max: 3_000 }).map((depth) => {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
});
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  validish,
  deep,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 3 }),
);
const fieldName = (known: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: known.length > 0 ? fc.constantFrom(...known) : hostileText },
    {
      weight: 1,
      arbitrary: fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', ''),
    },
    { weight: 1, arbitrary: hostileText },
  );

interface FuzzRequest {
  pathValues: string[];
  query: Array<[string, string]>;
  body: Array<[string, unknown]>;
  encoding: 'form' | 'json' | 'raw';
  raw: string;
  xml: boolean;
}

/** `base` with one or two fields replaced (or added) by `mutation`'s. */
function mutated<V>(base: Array<[string, V]>, mutation: Array<[string, V]>): Array<[string, V]> {
  const result = base.map(([name, value]): [string, V] => [name, value]);
  for (const [name, value] of mutation) {
    const at = result.findIndex(([existing]) => existing === name);
    if (at >= 0) result[at] = [name, value];
    else result.push([name, value]);
  }
  return result;
}

function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const bodyNames = [...new Set([...operation.bodyFields, ...operation.exampleBody.map(([name]) => name)])];
  const queryNames = [
    ...new Set([...operation.queryParams, ...operation.exampleQuery.map(([name]) => name)]),
  ];
  const hostileValue = fc.oneof(hostileText, jsonValue);
  const body = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(fieldName(bodyNames), hostileValue), { minLength: 1, maxLength: 2 })
        .map((mutation) => mutated<unknown>(operation.exampleBody, mutation)),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(fieldName(bodyNames), fc.oneof(validish, jsonValue)), { maxLength: 5 }),
    },
  );
  const query = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(fieldName(queryNames), fc.oneof(validish, hostileText)), {
          minLength: 0,
          maxLength: 2,
        })
        .map((mutation) => mutated(operation.exampleQuery, mutation)),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(fieldName(queryNames), fc.oneof(validish, hostileText)), { maxLength: 4 }),
    },
  );
  return fc.record({
    pathValues: fc.tuple(
      ...operation.pathParams.map(() =>
        fc.oneof({ weight: 3, arbitrary: fc.constant('1') }, { weight: 1, arbitrary: hostileText }),
      ),
    ),
    query,
    body,
    encoding: fc.constantFrom('form', 'form', 'json', 'json', 'json', 'raw'),
    raw: fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('{"a":', '[1,2]', 'null', '%zz=1', 'a=%ED%A0%80'),
    ),
    xml: fc.boolean(),
  }) as fc.Arbitrary<FuzzRequest>;
}

function encodeForm(body: Array<[string, unknown]>): string {
  return body
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      // encodeURIComponent refuses lone surrogates; send their UTF-8-less bytes as a client would try.
      const encode = (part: string) => {
        try {
          return encodeURIComponent(part);
        } catch {
          return part.replace(/[\ud800-\udfff]/g, '%ED%A0%80');
        }
      };
      return `${encode(name)}=${encode(text ?? 'null')}`;
    })
    .join('&');
}

function encodeJson(body: Array<[string, unknown]>): string {
  // Built by hand so duplicate and prototype keys survive as written.
  return `{${body.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
}

function targetOf(operation: Operation, request: FuzzRequest): string {
  let index = 0;
  const path = operation.path.replace(/\{\w+\}/g, () => {
    const value = request.pathValues[index++];
    try {
      return encodeURIComponent(value);
    } catch {
      return '%ED%A0%80';
    }
  });
  const suffix = !operation.telephony && request.xml && path !== '/' ? '.xml' : '';
  const prefix =
    operation.telephony || ['/health', '/ready', '/metrics'].includes(operation.path) ? '' : '/v1';
  const query = encodeForm(request.query);
  return `${prefix}${path}${suffix}${query === '' ? '' : `?${query}`}`;
}

describe('API fuzzing from docs/openapi/management.yaml', () => {
  let stores: TestStores;
  let service: RunningService;
  let client: DigestClient;
  const findings: string[] = [];
  let requests = 0;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'fuzz', 'fuzz password', ['127.0.0.1', '::1']);
    service = await startTestService(testConfig(stores, { TELEPHONY_TOKEN: TOKEN }));
    client = new DigestClient(service.port, 'fuzz-api', 'fuzz password');
    // Something to find: one customer (id 1) for the operations below it.
    await client.request({
      method: 'POST',
      path: '/v1/customers',
      body: 'name=Fuzz&custnr=fuzz-1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
    process.stdout.write(`API fuzz (management): ${requests} requests, ${findings.length} findings\n`);
  });

  async function send(operation: Operation, request: FuzzRequest): Promise<HttpResult> {
    const path = targetOf(operation, request);
    const body =
      operation.method === 'GET' || operation.method === 'DELETE'
        ? undefined
        : request.encoding === 'form'
          ? encodeForm(request.body)
          : request.encoding === 'json'
            ? encodeJson(request.body)
            : request.raw;
    const headers: Record<string, string> = {};
    if (body !== undefined)
      headers['Content-Type'] =
        request.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    if (request.xml) headers.Accept = 'application/xml';
    requests += 1;
    return operation.telephony
      ? await rawRequest({
          port: service.port,
          method: operation.method,
          path,
          body,
          headers: { ...headers, Authorization: `Bearer ${TOKEN}` },
        })
      : ['/health', '/ready', '/metrics'].includes(operation.path)
        ? await rawRequest({ port: service.port, method: operation.method, path, headers })
        : await client.request({ method: operation.method, path, body, headers });
  }

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    '%s: no 5xx, every 400 names a field, XML well-formed',
    async (_name, operation) => {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (request) => {
          const result = await send(operation, request);
          const what = `${operation.method} ${targetOf(operation, request).slice(0, 200)} → ${result.status}`;
          const problems: string[] = [];
          if (result.status >= 500)
            problems.push(
              `${what}: server error for body ${JSON.stringify(request.body).slice(0, 300)} (${request.encoding})`,
            );
          const type = String(result.headers['content-type'] ?? '');
          if (type.includes('xml') && XMLValidator.validate(result.text) !== true)
            problems.push(`${what}: XML not well-formed`);
          if (result.status === 400) {
            // One error, or (CDR batches) one error per refused record, each naming its field.
            const messages = type.includes('xml')
              ? [/<message>([\s\S]*)<\/message>/.exec(result.text)?.[1] ?? '']
              : (() => {
                  const answer = result.json() as Json;
                  return answer.error !== undefined
                    ? [String(answer.error.message ?? '')]
                    : ((answer.errors ?? [{}]) as Json[]).map((entry) => String(entry.message ?? ''));
                })();
            for (const message of messages) {
              // `<field>: <rule>`; an echoed unknown name may hold anything, ": " included.
              if (!/^[\s\S]+?: \S/.test(message))
                problems.push(`${what}: 400 names no field: ${result.text.slice(0, 300)}`);
            }
          }
          findings.push(...problems);
          expect(problems).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    60_000,
  );
});
