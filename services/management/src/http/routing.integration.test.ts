import type { ApiRecord } from './api-response';
import type { RouteDefinition } from './route-definition';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { DigestClient } from '../test-support/digest-client';
import type { HttpResult } from '../test-support/https-request';

const PASSWORD = 'correct horse';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

// Probe operations mounted behind the real platform, so each convention is observable on its own.
function echo(method: RouteDefinition['method'], path: string): RouteDefinition {
  return {
    method,
    path,
    handle: async ({ params, query, body }) => ({
      kind: 'value',
      root: 'echo',
      value: { route: `${method} ${path}`, params, query, body: JSON.stringify(body) },
    }),
  };
}

const record: ApiRecord = {
  source_id: '12',
  name: 'Bjørn & Søn <AS>',
  expire: null,
  alt_numbers: [
    { phonenr: '+4790000000', weekdays: 'mon,tue', from_time: '08:00', to_time: '16:00', alt_key: '1' },
  ],
  conditions: [],
  used_by: { '31': 'Main ad', '32': 'Second ad' },
};

const probes: RouteDefinition[] = [
  echo('GET', '/probes/:probeId/voice_items/:voiceItemId'),
  echo('PUT', '/probes/:probeId/voice_items/:voiceItemId'),
  echo('GET', '/probes/:probeId/campaigns'),
  echo('POST', '/probes/echo'),
  echo('PUT', '/probes/echo'),
  echo('DELETE', '/probes/echo'),
  {
    method: 'GET',
    path: '/probes/records',
    handle: async () => ({
      kind: 'records',
      names: { plural: 'sources', singular: 'source' },
      records: [record],
    }),
  },
  {
    method: 'GET',
    path: '/probes/paged',
    handle: async () => ({
      kind: 'paged',
      names: { plural: 'cdrs', singular: 'cdr' },
      records: [{ cdr_id: '1' }, { cdr_id: '2' }],
      total: 2501,
      page: 2,
      pageSize: 1000,
    }),
  },
  {
    method: 'POST',
    path: '/probes/created',
    handle: async () => ({
      kind: 'record',
      names: { plural: 'campaigns', singular: 'campaign' },
      record: { campaign_id: '5', expire: null },
      status: 201,
    }),
  },
  {
    method: 'GET',
    path: '/probes/explode',
    handle: async () => {
      throw new Error('database password is hunter2');
    },
  },
];

describe('routing, negotiation, bodies and rendering', () => {
  let stores: TestStores;
  let service: RunningService;
  let client: DigestClient;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', PASSWORD, ['127.0.0.1']);
    service = await startTestService(testConfig(stores), { extraRoutes: probes });
    client = new DigestClient(service.port, 'acme-api', PASSWORD);
  });

  afterAll(async () => {
    await service.close();
    await stores.release();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    client.request({ method: 'GET', path, headers });
  const echoOf = (result: HttpResult) => (result.json() as { echo: Record<string, unknown> }).echo;

  describe('versions and formats', () => {
    it('serves /v1/<path> and /<path> alike', async () => {
      const versioned = await get('/v1/miscellaneous/ping');
      const plain = await get('/miscellaneous/ping');
      expect([versioned.status, plain.status]).toEqual([200, 200]);
      expect(versioned.text).toBe(plain.text);
    });

    it.each(['/v2/miscellaneous/ping', '/v0/miscellaneous/ping'])(
      'answers 404 for another version: %s',
      async (path) => {
        const result = await get(path);
        expect(result.status).toBe(404);
        expect(result.json()).toEqual({
          error: { status: 404, message: `API version ${path.split('/')[1]} not found` },
        });
      },
    );

    it('selects XML by a suffix on the resource name or by Accept; JSON otherwise', async () => {
      const suffix = await get('/miscellaneous/ping.xml');
      expect(suffix.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(suffix.text).toBe(`${XML_HEAD}<ping>ok</ping>`);
      expect((await get('/v1/miscellaneous/ping', { Accept: 'application/xml' })).text).toBe(
        `${XML_HEAD}<ping>ok</ping>`,
      );
      const json = await get('/miscellaneous/ping.json', { Accept: 'application/xml' });
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(json.json()).toEqual({ ping: 'ok' });
      expect((await get('/miscellaneous/ping', { Accept: 'text/html' })).json()).toEqual({ ping: 'ok' });
    });

    it('takes the suffix on a resource name followed by an id', async () => {
      const result = await get('/probes.xml/7/voice_items/3');
      expect(result.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(result.text).toContain('<voiceItemId>3</voiceItemId>');
    });
  });

  describe('sub-resources', () => {
    it('reaches /<parent>/<id>/<sub>/<subId> and /<parent>/<sub>?<parent>_id=&<singular>_id= alike', async () => {
      const nested = echoOf(await get('/probes/7/voice_items/3'));
      const flat = echoOf(await get('/probes/voice_items?probe_id=7&voice_item_id=3&extra=1'));
      expect(nested.params).toEqual({ probeId: '7', voiceItemId: '3' });
      expect(flat.params).toEqual(nested.params);
      expect(flat.route).toBe(nested.route);
      expect(flat.query).toEqual({ extra: '1' });
      const list = echoOf(await get('/v1/probes/campaigns?probe_id=7'));
      expect(list).toMatchObject({ route: 'GET /probes/:probeId/campaigns', params: { probeId: '7' } });
    });
  });

  describe('methods', () => {
    it('lets a POST stand for another method through ?_method= or X-HTTP-Method-Override', async () => {
      const byQuery = await client.request({
        method: 'POST',
        path: '/probes/7/voice_items/3?_method=PUT',
        headers: { 'Content-Type': 'application/x-www-form-urlencode' },
        body: 'name=Hello',
      });
      expect(echoOf(byQuery)).toMatchObject({
        route: 'PUT /probes/:probeId/voice_items/:voiceItemId',
        query: {},
        body: '{"name":"Hello"}',
      });
      const byHeader = await client.request({
        method: 'POST',
        path: '/probes/echo',
        headers: { 'X-HTTP-Method-Override': 'DELETE' },
      });
      expect(echoOf(byHeader).route).toBe('DELETE /probes/echo');
    });

    it('answers 404 for an unknown path, 405 with Allow for a wrong method, 501 for an unimplemented one', async () => {
      const missing = await get('/nothing/here');
      expect(missing.status).toBe(404);
      expect(missing.json()).toEqual({ error: { status: 404, message: 'Resource /nothing/here not found' } });

      const wrong = await client.request({ method: 'DELETE', path: '/probes/records.xml' });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toBe('GET, HEAD');
      expect(wrong.text).toBe(
        `${XML_HEAD}<error><status>405</status><message>Method not allowed; allowed: GET, HEAD</message></error>`,
      );

      const patch = await client.request({ method: 'PATCH', path: '/probes/echo' });
      expect(patch.status).toBe(501);
      expect(patch.json()).toEqual({ error: { status: 501, message: 'Method PATCH is not implemented' } });
      const overridden = await client.request({ method: 'POST', path: '/probes/echo?_method=PATCH' });
      expect(overridden.status).toBe(501);
    });
  });

  describe('request bodies', () => {
    const post = (contentType: string | undefined, body: string | undefined) =>
      client.request({
        method: 'POST',
        path: '/probes/echo',
        headers: contentType ? { 'Content-Type': contentType } : {},
        body,
      });

    it.each([
      ['application/x-www-form-urlencoded', 'name=Bj%C3%B8rn+%C3%86r%C3%B8&custnr=45'],
      ['application/x-www-form-urlencode', 'name=Bj%C3%B8rn+%C3%86r%C3%B8&custnr=45'],
      ['application/x-www-form-urlencoded; charset=UTF-8', 'name=Bj%C3%B8rn+%C3%86r%C3%B8&custnr=45'],
      ['application/json', '{"name":"Bjørn Ærø","custnr":"45"}'],
    ])('parses %s as UTF-8', async (type, body) => {
      const result = await post(type, body);
      expect(result.status).toBe(200);
      expect(JSON.parse(echoOf(result).body as string)).toEqual({ name: 'Bjørn Ærø', custnr: '45' });
    });

    it.each([
      ['application/json', '{"name": ', /^body: is not valid JSON/],
      ['application/json', '["a"]', /^body: must be a JSON object$/],
      [
        'text/plain',
        'name=x',
        /^Content-Type: must be application\/x-www-form-urlencoded or application\/json, not text\/plain$/,
      ],
      [
        'application/x-www-form-urlencoded; charset=ISO-8859-1',
        'name=x',
        /^Content-Type: charset must be UTF-8, not ISO-8859-1$/,
      ],
      [
        'application/x-www-form-urlencoded',
        'name=%FF',
        /^body: has a percent-escape that is not valid UTF-8$/,
      ],
    ])('refuses %s body %s with 400 naming the problem', async (type, body, message) => {
      const result = await post(type, body);
      expect(result.status).toBe(400);
      const error = (result.json() as { error: { status: number; message: string } }).error;
      expect(error.status).toBe(400);
      expect(error.message).toMatch(message);
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const result = await post('application/x-www-form-urlencoded', `name=${'x'.repeat(1024 * 1024)}`);
      expect(result.status).toBe(413);
      expect(result.json()).toEqual({
        error: { status: 413, message: 'body: must be at most 1048576 bytes' },
      });
    });
  });

  describe('rendering', () => {
    it('wraps records under the plural name in JSON', async () => {
      expect((await get('/probes/records')).json()).toEqual({ sources: [record] });
    });

    it('renders records as XML: singular elements, null self-closing, arrays of singular children, maps with id attributes', async () => {
      const result = await get('/probes/records.xml');
      expect(result.text).toBe(
        XML_HEAD +
          '<sources><source><source_id>12</source_id><name>Bjørn &amp; Søn &lt;AS&gt;</name><expire/>' +
          '<alt_numbers><alt_number><phonenr>+4790000000</phonenr><weekdays>mon,tue</weekdays><from_time>08:00</from_time><to_time>16:00</to_time><alt_key>1</alt_key></alt_number></alt_numbers>' +
          '<conditions></conditions>' +
          '<used_by><item id="31">Main ad</item><item id="32">Second ad</item></used_by>' +
          '</source></sources>',
      );
    });

    it('puts paging figures first: numbers in JSON, child elements in XML', async () => {
      expect((await get('/probes/paged')).json()).toEqual({
        total: 2501,
        page: 2,
        pagesize: 1000,
        numpages: 3,
        cdrs: [{ cdr_id: '1' }, { cdr_id: '2' }],
      });
      expect((await get('/probes/paged.xml')).text).toBe(
        `${XML_HEAD}<cdrs><total>2501</total><page>2</page><pagesize>1000</pagesize><numpages>3</numpages><cdr><cdr_id>1</cdr_id></cdr><cdr><cdr_id>2</cdr_id></cdr></cdrs>`,
      );
    });

    it('renders a single created record with its status', async () => {
      const created = await client.request({ method: 'POST', path: '/probes/created' });
      expect(created.status).toBe(201);
      expect(created.json()).toEqual({ campaigns: { campaign_id: '5', expire: null } });
    });

    it('hides an unexpected error behind 500 Internal server error', async () => {
      const result = await get('/probes/explode');
      expect(result.status).toBe(500);
      expect(result.json()).toEqual({ error: { status: 500, message: 'Internal server error' } });
      expect(result.text).not.toContain('hunter2');
    });
  });
});
