import { slowClient } from '@trackline/test-harness';
import { digestAuthorization, parseChallenges } from '../test-support/digest-client';
import { rawRequest } from '../test-support/https-request';
import {
  createDigestPartner,
  createTestStores,
  startTestService,
  testConfig,
  type RunningService,
  type TestStores,
} from '../test-support/test-service';

/**
 * A client that trickles its request is cut off by the configured timeouts (docs/configuration.md,
 * HTTP limits). Plain HTTP behind a trusted proxy, so the test speaks raw bytes.
 */
describe('slow clients on the management port', () => {
  let stores: TestStores;
  let service: RunningService;
  const observed: Array<[string, string, number]> = [];

  beforeAll(async () => {
    stores = await createTestStores();
    await createDigestPartner(stores, 'acme', 'secret pass', ['127.0.0.1']);
    service = await startTestService(
      testConfig(stores, {
        TRUST_PROXY: '127.0.0.1',
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '1500',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      }),
    );
    const observe = service.app.metrics.httpRequest.bind(service.app.metrics);
    service.app.metrics.httpRequest = (method, route, status) => {
      observed.push([method, route, status]);
      observe(method, route, status);
    };
  });

  afterAll(async () => {
    await service?.close();
    await stores?.release();
  });

  it('closes an authenticated upload trickled at one byte per 200 ms, without a server error', async () => {
    const first = await rawRequest({
      port: service.port,
      method: 'POST',
      path: '/v1/customers',
      plain: true,
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    const [challenge] = parseChallenges(first.headers);
    const authorization = digestAuthorization({
      username: 'acme-api',
      password: 'secret pass',
      challenge,
      method: 'POST',
      uri: '/v1/customers',
      nc: 1,
    });
    const body = 'name=Slow&custnr=slow-1'.padEnd(100, '&');
    const result = await slowClient(
      service.port,
      'POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\n' +
        `Authorization: ${authorization}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
      body,
      200,
    );
    expect(result.sentBytes).toBeLessThan(body.length);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(observed.filter(([, , status]) => status >= 500)).toEqual([]);
  });

  it('closes a connection whose headers trickle', async () => {
    const headers = `X-Slow: ${'y'.repeat(100)}\r\n\r\n`;
    const result = await slowClient(
      service.port,
      'GET /health HTTP/1.1\r\nHost: localhost\r\n',
      headers,
      200,
    );
    expect(result.sentBytes).toBeLessThan(headers.length);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const result = await slowClient(
      service.port,
      'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
      ' ',
      30_000,
    );
    expect(result.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.sentBytes).toBe(0);
  });
});
