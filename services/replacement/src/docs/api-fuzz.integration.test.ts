import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePartnerProjection } from '@trackline/contracts';
import fc from 'fast-check';
import { parse } from 'yaml';
import { partnerConfig, projection, sourceRoute } from '../test-support/fixtures';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

/**
 * The API fuzzer for docs/openapi/replacement.yaml (docs/testing.md, API fuzzing): every
 * operation gets its documented request mutated a field or two at a time with hostile values,
 * signed with the partner's secret (or the switch's token), against the real service. Any 5xx
 * and any 400 that does not name a field fails (a request that hangs fails by the test's timeout).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SECRET = 'fuzz-signing-secret';
const TOKEN = 'switch-token';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const spec = parse(
  readFileSync(join(__dirname, '../../../../docs/openapi/replacement.yaml'), 'utf8'),
) as Json;

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

interface Operation {
  method: string;
  path: string;
  fields: string[];
  example: Array<[string, unknown]>;
}

const operations: Operation[] = Object.entries(spec.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => ['get', 'post'].includes(method))
    .map(([method, operation]: [string, Json]) => {
      const media = resolve(operation.requestBody).content?.['application/json'];
      const schema = resolve(media?.schema);
      const first = Object.values((media?.examples ?? {}) as Json)[0] as Json | undefined;
      const example = resolve(first).value as Json | undefined;
      return {
        method: method.toUpperCase(),
        path,
        fields: Object.keys(schema.properties ?? {}),
        example: Object.entries(example !== null && typeof example === 'object' ? example : {}),
      };
    }),
);

const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\u0001\u001b\ufffe', ''),
  fc.constantFrom('0000-01-01 00:00:00', '9999-12-31 23:59:59', '2026-02-30 00:00:00', '1e308', 'NaN', '-1'),
  fc.constant('x'.repeat(20_000)),
  fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'),
  fc.string({ maxLength: 12 }),
);
const deep = fc.integer({ min: 1, max: 3_000 }).map((depth) => {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
});
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
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
    { weight: 1, arbitrary: fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', '') },
    { weight: 1, arbitrary: hostileText },
  );

function bodyOf(entries: Array<[string, unknown]>): string {
  // Built by hand so duplicate and prototype keys survive as written.
  return `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
}

describe('API fuzzing from docs/openapi/replacement.yaml', () => {
  let target: RedisTarget;
  let app: TestServer;
  let requests = 0;
  const findings: string[] = [];

  beforeAll(async () => {
    target = await singleRedisTarget();
    app = await startTestServer(target.redis, target.keyPrefix);
    await writePartnerProjection(
      target.redis,
      target.keyPrefix,
      projection(partnerConfig('acme', { signingSecret: SECRET }), ['+4791000001'], [sourceRoute()]),
    );
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
    process.stdout.write(`API fuzz (replacement): ${requests} requests, ${findings.length} findings\n`);
  });

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    '%s: no 5xx, every 400 names a field',
    async (_name, operation) => {
      const names = [...new Set([...operation.fields, ...operation.example.map(([name]) => name)])];
      const mutation = fc.array(fc.tuple(fieldName(names), hostileValue), { minLength: 1, maxLength: 2 });
      await fc.assert(
        fc.asyncProperty(mutation, fc.boolean(), async (changes, statuses) => {
          const entries = operation.example.map(([name, value]): [string, unknown] => [name, value]);
          for (const [name, value] of changes) {
            const at = entries.findIndex(([existing]) => existing === name);
            if (at >= 0) entries[at] = [name, value];
            else entries.push([name, value]);
          }
          const body = operation.method === 'GET' ? undefined : bodyOf(entries);
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (body !== undefined) headers['X-SIGN'] = createHmac('sha1', SECRET).update(body).digest('hex');
          if (operation.path.startsWith('/telephony/')) headers.Authorization = `Bearer ${TOKEN}`;
          if (statuses) headers['X-HTTP-STATUSES'] = '1';
          requests += 1;
          const response = await fetch(`${app.baseUrl}${operation.path}`, {
            method: operation.method,
            headers,
            body,
          });
          const text = await response.text();
          const what = `${operation.method} ${operation.path} ${(body ?? '').slice(0, 200)} → ${response.status}`;
          const problems: string[] = [];
          if (response.status >= 500) problems.push(`${what}: server error ${text.slice(0, 200)}`);
          if (response.status === 400) {
            const answer = JSON.parse(text) as Json;
            const message = String(answer.error?.message ?? answer.error ?? answer.message ?? '');
            if (!/^[\s\S]+?: \S/.test(message))
              problems.push(`${what}: 400 names no field: ${text.slice(0, 200)}`);
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
