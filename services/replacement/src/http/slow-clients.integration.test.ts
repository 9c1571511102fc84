import { slowClient } from '@trackline/test-harness';
import { singleRedisTarget, type RedisTarget } from '../test-support/redis-target';
import { startTestServer, type TestServer } from '../test-support/test-server';

/**
 * A client that trickles its request is cut off by the configured timeouts (docs/configuration.md,
 * HTTP limits) instead of holding a connection for minutes.
 */
describe('slow clients on the replacement port', () => {
  let target: RedisTarget;
  let app: TestServer;
  let port: number;

  beforeAll(async () => {
    target = await singleRedisTarget();
    app = await startTestServer(target.redis, target.keyPrefix, {
      http: {
        headersTimeoutMs: 1_000,
        requestTimeoutMs: 1_500,
        keepAliveTimeoutMs: 1_000,
        maxRequestsPerSocket: 0,
      },
    });
    port = Number(new URL(app.baseUrl).port);
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
  });

  it('closes a connection whose body trickles at one byte per 200 ms, answering 408', async () => {
    const body = 'x'.repeat(100);
    const result = await slowClient(
      port,
      `POST /dynamic-numbers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
      200,
    );
    // Sending all 100 bytes would take 20 s; the server hung up long before.
    expect(result.sentBytes).toBeLessThan(body.length);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
    // The aborted upload is the client's event: no request was counted as a server error.
    const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(metrics).not.toMatch(/outcome="5\d\d"\} [1-9]/);
  });

  it('closes a connection whose headers trickle', async () => {
    const headers = `X-Slow: ${'y'.repeat(100)}\r\n\r\n`;
    const result = await slowClient(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\n', headers, 200);
    expect(result.sentBytes).toBeLessThan(headers.length);
    expect(result.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const result = await slowClient(
      port,
      'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
      ' '.repeat(1),
      30_000,
    );
    expect(result.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.sentBytes).toBe(0);
  });
});
