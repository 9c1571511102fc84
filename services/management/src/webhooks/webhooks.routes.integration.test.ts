import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';
import { DigestClient } from '../test-support/digest-client';

const form = (fields: Record<string, string>) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencode' },
  body: new URLSearchParams(fields).toString(),
});

// The webhook resource as a partner uses it over HTTPS with digest auth: JSON and XML, the 400s
// that name the field, the URL rules, and partner isolation.
describe('/v1/webhooks', () => {
  let stores: TestStores;
  let service: RunningService;
  let acme: DigestClient;
  let other: DigestClient;

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'password-acme', ['127.0.0.1']);
    await createDigestPartner(stores, 'other', 'password-other', ['127.0.0.1']);
    service = await startTestService(
      testConfig(stores, { WEBHOOK_INSECURE_HOSTS: 'localhost,insecure.test' }),
    );
    acme = new DigestClient(service.port, 'acme-api', 'password-acme');
    other = new DigestClient(service.port, 'other-api', 'password-other');
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  async function create(fields: Record<string, string>, client = acme) {
    return client.request({ method: 'POST', path: '/v1/webhooks', ...form(fields) });
  }

  it('creates a webhook with every event by default and shows its secret only then', async () => {
    const created = await create({ url: 'http://localhost:9/hooks' });
    expect(created.status).toBe(200);
    const [record] = (created.json() as { webhooks: Array<Record<string, string | null>> }).webhooks;
    expect(record).toEqual({
      webhook_id: expect.stringMatching(/^\d+$/),
      url: 'http://localhost:9/hooks',
      events:
        'call.completed,call.missed,voicemail.new,customer.created,pool.exhausted,pool.resized,call.outcome,call.transcribed,call.classified',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      state: '0',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    const read = await acme.request({ method: 'GET', path: `/v1/webhooks/${record!.webhook_id}` });
    expect(read.status).toBe(200);
    expect((read.json() as { webhooks: unknown[] }).webhooks).toEqual([{ ...record, secret: null }]);
  });

  it('keeps the events it is given in catalogue order, and changes them with PUT', async () => {
    const created = await create({ url: 'http://localhost:9/a', events: 'voicemail.new, call.completed' });
    const [record] = (created.json() as { webhooks: Array<Record<string, string>> }).webhooks;
    expect(record!.events).toBe('call.completed,voicemail.new');
    const updated = await acme.request({
      method: 'PUT',
      path: `/v1/webhooks/${record!.webhook_id}`,
      ...form({ events: 'customer.created', state: '1' }),
    });
    expect(updated.status).toBe(200);
    expect((updated.json() as { webhooks: Array<Record<string, string>> }).webhooks[0]).toMatchObject({
      url: 'http://localhost:9/a',
      events: 'customer.created',
      state: '1',
      secret: null,
    });
  });

  it('answers in XML', async () => {
    const created = await create({ url: 'http://localhost:9/xml', events: 'call.missed' });
    const id = (created.json() as { webhooks: Array<Record<string, string>> }).webhooks[0]!.webhook_id;
    const xml = await acme.request({ method: 'GET', path: `/v1/webhooks.xml/${id}` });
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.text).toContain(
      `<webhooks><webhook><webhook_id>${id}</webhook_id><url>http://localhost:9/xml</url><events>call.missed</events><secret/><state>0</state>`,
    );
  });

  it.each([
    [{}, 'url: is required'],
    [{ url: 'ftp://example.com/x' }, 'url: must be an https URL'],
    [{ url: 'http://hooks.example.com/x' }, 'url: must be an https URL'],
    [{ url: 'not a url' }, 'url: must be an absolute https URL'],
    [{ url: 'https://user:pw@8.8.8.8/x' }, 'url: must not contain a user name or password'],
    [
      { url: 'https://127.0.0.1/x' },
      'url: host 127.0.0.1 resolves to 127.0.0.1, a loopback address; webhooks go to public addresses only',
    ],
    [{ url: 'https://10.1.2.3/x' }, 'url: host 10.1.2.3 resolves to 10.1.2.3, a private address'],
    [{ url: 'https://192.168.0.10/x' }, 'url: host 192.168.0.10 resolves to 192.168.0.10, a private address'],
    [
      { url: 'https://169.254.169.254/latest/meta-data' },
      'url: host 169.254.169.254 resolves to 169.254.169.254, a link-local address',
    ],
    [{ url: 'https://[::1]/x' }, 'url: host ::1 resolves to ::1, a loopback address'],
    [
      { url: 'https://[::ffff:10.0.0.1]/x' },
      'url: host ::ffff:a00:1 resolves to ::ffff:a00:1, a private address',
    ],
    [
      { url: 'https://[::127.0.0.1]/x' },
      'url: host ::7f00:1 resolves to ::7f00:1, an IPv4-compatible IPv6 address',
    ],
    [
      { url: 'https://[::a00:1]/x' },
      'url: host ::a00:1 resolves to ::a00:1, an IPv4-compatible IPv6 address',
    ],
    [
      { url: 'https://[fd00:ec2::254]/x' },
      'url: host fd00:ec2::254 resolves to fd00:ec2::254, a unique-local address',
    ],
    [{ url: 'http://localhost:9/x', events: '' }, 'events: must be one or more of'],
    [
      { url: 'http://localhost:9/x', events: 'call.completed,call.answered' },
      'events: has unknown event type "call.answered"',
    ],
    [
      { url: 'http://localhost:9/x', events: 'call.missed,call.missed' },
      'events: must not name an event twice',
    ],
    [{ url: 'http://localhost:9/x', state: '2' }, 'state: must be "0" (active) or "1" (paused)'],
    [{ url: 'http://localhost:9/x', colour: 'red' }, 'colour: is not a known field'],
  ])('refuses %j with 400 naming the field', async (fields, message) => {
    const answer = await create(fields as Record<string, string>);
    expect(answer.status).toBe(400);
    const error = (answer.json() as { error: { status: number; message: string } }).error;
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it('refuses a host name that resolves to a loopback address unless it is listed as insecure', async () => {
    const answer = await create({ url: 'https://localhost.localdomain/x' });
    // Either it resolves to loopback or not at all here; a webhook cannot point there either way.
    expect(answer.status).toBe(400);
    expect((answer.json() as { error: { message: string } }).error.message).toMatch(/^url: host localhost/);
    const listed = await create({ url: 'https://localhost/x' });
    expect(listed.status).toBe(200);
  });

  it("answers 404 for another partner's webhook, for every operation", async () => {
    const created = await create({ url: 'http://localhost:9/mine' });
    const id = (created.json() as { webhooks: Array<Record<string, string>> }).webhooks[0]!.webhook_id;
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${id}`],
      ['PUT', `/v1/webhooks/${id}`],
      ['DELETE', `/v1/webhooks/${id}`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/test`],
    ] as const) {
      const answer = await other.request({ method, path, ...form(method === 'PUT' ? { state: '1' } : {}) });
      expect({ method, path, status: answer.status, body: answer.json() }).toEqual({
        method,
        path,
        status: 404,
        body: { error: { status: 404, message: `webhook ${id} not found` } },
      });
    }
    const list = await other.request({ method: 'GET', path: '/v1/webhooks' });
    expect((list.json() as { webhooks: unknown[] }).webhooks).toEqual([]);
    const mine = await acme.request({ method: 'GET', path: `/v1/webhooks/${id}` });
    expect(mine.status).toBe(200);
    for (const bad of ['0', 'abc', '99999999999999999999']) {
      const answer = await acme.request({ method: 'GET', path: `/v1/webhooks/${bad}` });
      expect(answer.status).toBe(404);
    }
  });

  it('queues a test delivery, lists it, and deletes the webhook with its queue', async () => {
    const created = await create({ url: 'http://localhost:9/test', events: 'call.missed' });
    const id = (created.json() as { webhooks: Array<Record<string, string>> }).webhooks[0]!.webhook_id;
    const test = await acme.request({ method: 'POST', path: `/v1/webhooks/${id}/test` });
    expect(test.status).toBe(202);
    const [queued] = (test.json() as { deliveries: Array<Record<string, string | null>> }).deliveries;
    expect(queued).toMatchObject({
      webhook_id: id,
      message_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      event: 'webhook.test',
      status: 'pending',
      attempts: '0',
      status_code: null,
      error: null,
      last_attempt: null,
      sent: null,
    });
    const list = await acme.request({ method: 'GET', path: `/v1/webhooks/${id}/deliveries` });
    expect(list.json()).toEqual({ total: 1, page: 0, pagesize: 1000, numpages: 1, deliveries: [queued] });
    for (const [query, message] of [
      ['?page=-1', 'page: must be a whole number from 0 to 999999999'],
      ['?pagesize=0', 'pagesize: must be a whole number from 1 to 1000'],
      ['?status=dead', 'status: is not a known query parameter'],
    ]) {
      const refused = await acme.request({ method: 'GET', path: `/v1/webhooks/${id}/deliveries${query}` });
      expect(refused.status).toBe(400);
      expect(refused.json()).toEqual({ error: { status: 400, message } });
    }
    const removed = await acme.request({ method: 'DELETE', path: `/v1/webhooks/${id}` });
    expect(removed.status).toBe(200);
    expect((await acme.request({ method: 'GET', path: `/v1/webhooks/${id}` })).status).toBe(404);
    const [{ count }] = (await stores.dataSource.query(
      'SELECT count(*)::int AS count FROM webhook_deliveries WHERE webhook_id = $1',
      [id],
    )) as Array<{ count: number }>;
    expect(count).toBe(0);
  });

  it('lists deliveries newest first by number, across pages, past ten of them', async () => {
    const created = await create({ url: 'http://localhost:9/paging' });
    const id = (created.json() as { webhooks: Array<Record<string, string>> }).webhooks[0]!.webhook_id;
    const queued: string[] = [];
    for (let i = 0; i < 12; i++) {
      const test = await acme.request({ method: 'POST', path: `/v1/webhooks/${id}/test` });
      expect(test.status).toBe(202);
      queued.push((test.json() as { deliveries: Array<Record<string, string>> }).deliveries[0]!.delivery_id!);
    }
    // Ids of more than one length, so an order by their text would differ from the order by number.
    expect(new Set(queued.map((delivery) => delivery.length)).size).toBeGreaterThan(1);
    const newestFirst = [...queued].sort((a, b) => Number(BigInt(b) - BigInt(a)));
    expect(newestFirst).toEqual([...queued].reverse());
    const idsOf = async (query: string): Promise<string[]> => {
      const list = await acme.request({ method: 'GET', path: `/v1/webhooks/${id}/deliveries${query}` });
      expect(list.status).toBe(200);
      return (list.json() as { deliveries: Array<Record<string, string>> }).deliveries.map(
        (delivery) => delivery.delivery_id!,
      );
    };
    expect(await idsOf('')).toEqual(newestFirst);
    expect([
      ...(await idsOf('?pagesize=5&page=0')),
      ...(await idsOf('?pagesize=5&page=1')),
      ...(await idsOf('?pagesize=5&page=2')),
    ]).toEqual(newestFirst);
    expect((await acme.request({ method: 'DELETE', path: `/v1/webhooks/${id}` })).status).toBe(200);
  });

  it('refuses an eleventh webhook with 403', async () => {
    const list = await other.request({ method: 'GET', path: '/v1/webhooks' });
    const existing = (list.json() as { webhooks: unknown[] }).webhooks.length;
    for (let i = existing; i < 10; i++)
      expect((await create({ url: `http://localhost:9/${i}` }, other)).status).toBe(200);
    const eleventh = await create({ url: 'http://localhost:9/11' }, other);
    expect(eleventh.status).toBe(403);
    expect((eleventh.json() as { error: { message: string } }).error.message).toContain(
      'at most 10 webhooks',
    );
  });
});
