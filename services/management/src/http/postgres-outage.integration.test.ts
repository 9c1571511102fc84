import { Writable } from 'node:stream';
import pino from 'pino';
import { rawRequest } from '../test-support/https-request';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';
import {
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

const TOKEN = 'switch-token';
const NUMBER = '+4740000002';
const REFUSED_REQUESTS = 60;

interface LogLine {
  level: string;
  msg: string;
  err?: unknown;
  [field: string]: unknown;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Postgres lost during call record ingestion (docs/operations.md, Store outages): every request
 * is refused with 503, and the log tells the outage as one story — a line when Postgres becomes
 * unreachable, a line when it is back — instead of a stack trace per refused request.
 */
describe('management during a Postgres outage', () => {
  let stores: TestStores;
  let proxy: TcpProxy;
  let service: RunningService | undefined;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    stores = await createTestStores();
    const partner = await stores.services.partners.create({
      name: 'acme',
      username: 'acme-api',
      password: 'secret pass',
      signingSecret: 'sixteen-chars-ok',
      allowIps: ['127.0.0.1'],
    });
    await stores.dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, $2, 'pool', now())`,
      [partner.id, NUMBER],
    );
    const databaseUrl = new URL(stores.database.url);
    proxy = await startTcpProxy(databaseUrl.hostname, Number(databaseUrl.port || 5432));
    databaseUrl.port = String(proxy.port);
    const config = testConfig(stores, { DATABASE_URL: databaseUrl.toString(), TELEPHONY_TOKEN: TOKEN });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line !== '') lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    const logger = pino({ level: 'info', formatters: { level: (label) => ({ level: label }) } }, sink);
    service = await startTestService(config, { logger });
  });

  afterAll(async () => {
    await service?.close();
    await proxy?.close();
    await stores?.release();
  });

  const postCdr = (callId: string) =>
    rawRequest({
      port: service!.port,
      method: 'POST',
      path: '/telephony/cdrs',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        call_id: callId,
        anum: '+4791234567',
        bnum: NUMBER,
        start: '2026-03-02 09:00:00',
        duration: 60,
        answered: 1,
      }),
    });

  it('refuses call records with 503 and Retry-After, and logs the outage in two lines', async () => {
    expect((await postCdr('before-outage')).status).toBe(201);
    const from = lines.length;
    proxy.cut();
    for (let sent = 0; sent < REFUSED_REQUESTS; sent += 6) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) => postCdr(`outage-${sent + index}`)),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        // The switch retries a 503 (docs/switch.md); the header says when.
        expect(answer.headers['retry-after']).toBe('1');
      }
    }
    proxy.restore();
    await eventually(async () => (await postCdr('after-outage')).status === 201);
    await eventually(() => Promise.resolve(lines.some((line) => line.msg === 'postgres is reachable again')));

    // The access log writes one line per request by design; everything else is the outage's story.
    const told = lines
      .slice(from)
      .filter((line) => line.msg !== 'request' && line.msg !== 'call records ingested');
    expect(told.length).toBeLessThanOrEqual(5);
    const down = told.filter((line) => line.msg === 'postgres is unreachable');
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({ level: 'error', store: 'postgres' });
    expect(down[0]!.err).toBeUndefined();
    const back = told.find((line) => line.msg === 'postgres is reachable again');
    expect(back).toMatchObject({ store: 'postgres', refusedRequests: expect.any(Number) });
    expect(back!.refusedRequests).toBeGreaterThanOrEqual(REFUSED_REQUESTS);
    expect(told.filter((line) => line.err !== undefined)).toEqual([]);

    const metrics = await rawRequest({ port: service!.port, method: 'GET', path: '/metrics' });
    const refusals = /^trackline_store_refusals_total\{store="postgres"\} (\d+)$/m.exec(metrics.text);
    expect(Number(refusals?.[1])).toBeGreaterThanOrEqual(REFUSED_REQUESTS);
  });
});
