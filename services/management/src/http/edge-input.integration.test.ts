import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DigestClient } from '../test-support/digest-client';
import { rawRequest } from '../test-support/https-request';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const NUL_RULE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/** Operations with text fields, and those fields (docs/openapi/management.yaml). */
const TEXT_FIELDS: Array<{ method: 'POST' | 'PUT'; path: string; fields: string[] }> = [
  {
    method: 'POST',
    path: '/v1/customers',
    fields: ['name', 'custnr', 'corporateid', 'email', 'dncs_class_name'],
  },
  { method: 'PUT', path: '/v1/customers/1', fields: ['name', 'custnr', 'corporateid', 'email'] },
  { method: 'POST', path: '/v1/sources', fields: ['name', 'media', 'campaign_id', 'publisher_id', 'email'] },
  { method: 'PUT', path: '/v1/sources/1', fields: ['name', 'media', 'email', 'smsnumber'] },
  { method: 'POST', path: '/v1/pricing_models', fields: ['name'] },
  { method: 'POST', path: '/v1/customers/1/campaigns', fields: ['name'] },
];

/**
 * What no store can hold, or no parser should reach, is refused at the edge with a 400 naming
 * the field (docs/architecture.md, Hardened edges) — never a 500.
 */
describe('hostile input at the partner API edge', () => {
  let stores: TestStores;
  let service: RunningService;
  let client: DigestClient;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'secret pass', ['127.0.0.1', '::1']);
    service = await startTestService(testConfig(stores));
    client = new DigestClient(service.port, 'acme-api', 'secret pass');
    const created = await client.request({
      method: 'POST',
      path: '/v1/customers',
      body: 'name=First&custnr=c1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(created.status).toBe(200);
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  const form = (method: string, path: string, body: string) =>
    client.request({ method, path, body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  const json = (method: string, path: string, body: string) =>
    client.request({ method, path, body, headers: { 'Content-Type': 'application/json' } });

  const cases = TEXT_FIELDS.flatMap(({ method, path, fields }) =>
    fields.map((field) => [method, path, field] as const),
  );

  it.each(cases)(
    '%s %s: a NUL in %s is a 400 naming it, as a form and as JSON',
    async (method, path, field) => {
      const viaForm = await form(method, path, `${field}=a%00b`);
      expect(viaForm.status).toBe(400);
      expect(viaForm.json()).toEqual({
        error: { status: 400, message: `${field}: ${NUL_RULE} (character 2)` },
      });
      const viaJson = await json(method, path, JSON.stringify({ [field]: 'a\u0000b' }));
      expect(viaJson.status).toBe(400);
      expect(viaJson.json()).toEqual({
        error: { status: 400, message: `${field}: ${NUL_RULE} (character 2)` },
      });
    },
  );

  it('refuses a lone surrogate in email (JSON escape and form percent-escape alike)', async () => {
    const viaJson = await json(
      'POST',
      '/v1/customers',
      '{"name":"x","custnr":"s1","email":"a\\ud800@example.com"}',
    );
    expect(viaJson.json()).toEqual({ error: { status: 400, message: `email: ${NUL_RULE} (character 2)` } });
    // Percent-encoded, a lone surrogate is invalid UTF-8: refused before the fields are read.
    const viaForm = await form('POST', '/v1/customers', 'name=x&custnr=s1&email=a%ED%A0%80@example.com');
    expect(viaForm.status).toBe(400);
    expect(viaForm.json()).toEqual({
      error: { status: 400, message: 'body: has a percent-escape that is not valid UTF-8' },
    });
  });

  it('refuses %00 in a query value, naming the parameter', async () => {
    const result = await client.request({ method: 'GET', path: '/v1/customers?custnr=a%00b' });
    expect(result.json()).toEqual({ error: { status: 400, message: `custnr: ${NUL_RULE} (character 2)` } });
  });

  it.each([
    ['/v1/statistics/cdrs?custnr=c1&from_date=0000-01-01', 'from_date: must have a year from 1900 to 9999'],
    ['/v1/statistics/cdrs?custnr=c1&to_date=0000-12-31', 'to_date: must have a year from 1900 to 9999'],
    ['/v1/statistics/cdrs?custnr=c1&colour=red', 'colour: is not a known query parameter'],
    ['/v1/statistics/cdrs?custnr=c1&page=1000000000', 'page: must be a whole number from 0 to 999999999'],
    ['/v1/sources?page=1000000000', 'page: must be a whole number from 0 to 999999999'],
    ['/v1/sources?pagesize=1001', 'pagesize: must be a whole number from 1 to 1000'],
    ['/v1/statistics/cdrs?custnr=c1&pagesize=1001', 'pagesize: must be a whole number from 1 to 1000'],
    ['/v1/customers?__proto__=x', '__proto__: is not a known query parameter'],
    ['/v1/customers?=x', '(empty name): is not a known query parameter'],
  ])('GET %s is a 400: %s', async (path, message) => {
    const result = await client.request({ method: 'GET', path });
    expect(result.json()).toEqual({ error: { status: 400, message } });
  });

  it('refuses JSON nested 2,000 deep at the depth limit, naming where', async () => {
    const deep = `{"name":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const result = await json('POST', '/v1/customers', deep);
    expect(result.status).toBe(400);
    expect(result.json()).toEqual({
      error: { status: 400, message: `name${'[0]'.repeat(15)}: must not nest deeper than 16 levels` },
    });
  });

  it.each(['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty', ''])(
    'refuses the field name %j as unknown, as a form and as JSON',
    async (name) => {
      const message = `${name === '' ? '(empty name)' : name}: is not a known field`;
      const viaForm = await form('POST', '/v1/customers', `name=x&custnr=p1&${encodeURIComponent(name)}=1`);
      expect(viaForm.json()).toEqual({ error: { status: 400, message } });
      const viaJson = await json(
        'POST',
        '/v1/customers',
        `{"name":"x","custnr":"p1",${JSON.stringify(name)}:"1"}`,
      );
      expect(viaJson.json()).toEqual({ error: { status: 400, message } });
      const listed = await client.request({ method: 'GET', path: '/v1/customers?custnr=p1' });
      expect(listed.json()).toEqual({ customers: [] });
    },
  );

  it('refuses a nested value carrying an inherited name (found by the fuzzer: a 500 before)', async () => {
    const result = await json('POST', '/v1/sources', '{"name":"x","pricing_model_id":{"constructor":"x"}}');
    expect(result.json()).toEqual({
      error: { status: 400, message: 'constructor: is not a known field of pricing_model_id' },
    });
  });

  it.each([
    [' 1', '" 1": is not a known field'],
    [
      'x'.repeat(200),
      `"${'x'.repeat(64)}…": is not a known query parameter: names are at most 100 characters`,
    ],
  ])('names an odd parameter %j readably', async (name, message) => {
    const result = await client.request({ method: 'GET', path: `/v1/sources?${encodeURIComponent(name)}=1` });
    expect(result.json()).toEqual({ error: { status: 400, message } });
  });

  it('renders an XML error that echoes control characters as a well-formed document', async () => {
    const result = await client.request({
      method: 'GET',
      path: '/v1/customers.xml/%01x%1b%EF%BF%BE',
      headers: { Accept: 'application/xml' },
    });
    expect(result.status).toBe(404);
    expect(XMLValidator.validate(result.text)).toBe(true);
    expect(new XMLParser().parse(result.text)).toEqual({
      '?xml': '',
      error: { status: 404, message: 'customer \uFFFDx\uFFFD\uFFFD not found' },
    });
  });

  it('answers GET /telephony/cdrs with 405 and Allow: POST, not a digest challenge', async () => {
    const service2 = await startTestService(testConfig(stores, { TELEPHONY_TOKEN: 'switch-token' }));
    try {
      const result = await rawRequest({
        port: service2.port,
        method: 'GET',
        path: '/telephony/cdrs',
        headers: { Authorization: 'Bearer switch-token' },
      });
      expect(result.status).toBe(405);
      expect(result.headers.allow).toBe('POST');
      expect(result.headers['www-authenticate']).toBeUndefined();
      // The switch's endpoints refuse odd names the same way (found by the fuzzer).
      const unnamed = await rawRequest({
        port: service2.port,
        method: 'POST',
        path: '/telephony/cdrs',
        headers: { Authorization: 'Bearer switch-token', 'Content-Type': 'application/json' },
        body: '{"":"1"}',
      });
      expect(unnamed.status).toBe(400);
      expect(unnamed.json()).toEqual({
        error: { status: 400, message: '(empty name): is not a known field' },
      });
    } finally {
      await service2.close();
    }
  });
});
