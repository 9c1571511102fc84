import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { listen } from '@trackline/platform';
import { WebhookSender, type WebhookAttempt } from './webhook-sender';
import { InsecureHosts, systemResolver, type HostResolver } from './webhook-url';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8/y+Vf5yY1k=';

function attempt(url: string, id: number): WebhookAttempt {
  return { url, messageId: `msg_${id}`, timestamp: new Date(), body: `{"n":${id}}`, secret: SECRET };
}

function sender(insecure: string[], resolve: HostResolver = systemResolver): WebhookSender {
  return new WebhookSender({
    insecureHosts: new InsecureHosts(insecure),
    resolve,
    timeoutMs: 2_000,
    maxResponseBytes: 4_096,
  });
}

/**
 * Kept-alive connections to receivers (webhook-connections.ts), against real servers on loopback:
 * shared by the deliveries to one receiver, never across different checked addresses, and a kept
 * connection the receiver closed costs no failed attempt.
 */
describe('webhook sender connections', () => {
  const servers: Array<{ close(): unknown }> = [];
  const senders: WebhookSender[] = [];

  afterEach(async () => {
    for (const made of senders.splice(0)) made.close();
    for (const server of servers.splice(0)) server.close();
  });

  /** A receiver answering 200 that counts the TCP connections it accepted. */
  async function receiver(): Promise<{ url: (host?: string) => string; connections: () => number }> {
    let connections = 0;
    const server: Server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
    server.on('connection', () => (connections += 1));
    const port = await listen(server, 0, '127.0.0.1');
    servers.push({ close: () => server.close() });
    return { url: (host = '127.0.0.1') => `http://${host}:${port}/in`, connections: () => connections };
  }

  it('sends the deliveries to one receiver over one kept connection', async () => {
    const target = await receiver();
    const made = sender(['127.0.0.1']);
    senders.push(made);
    for (let i = 1; i <= 3; i++) expect((await made.send(attempt(target.url(), i))).statusCode).toBe(200);
    expect(target.connections()).toBe(1);
  });

  it('opens a connection of its own for a host that resolved to other addresses', async () => {
    const target = await receiver();
    let addresses = ['127.0.0.1'];
    const made = sender(['hooks.local.test'], async () => addresses);
    senders.push(made);
    const url = target.url('hooks.local.test');
    await made.send(attempt(url, 1));
    await made.send(attempt(url, 2));
    expect(target.connections()).toBe(1);
    // The name now resolves to another set (which reaches the same receiver): not the kept connection.
    addresses = ['127.0.0.1', '127.0.0.2'];
    expect((await made.send(attempt(url, 3))).statusCode).toBe(200);
    expect(target.connections()).toBe(2);
  });

  it('sends again on a new connection when the receiver has closed the kept one', async () => {
    // Answers the first request of each connection and kills the connection at its second.
    const requestsPerConnection: number[] = [];
    const server = createTcpServer((socket: Socket) => {
      const index = requestsPerConnection.push(0) - 1;
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        requestsPerConnection[index] += 1;
        if (requestsPerConnection[index] === 1) {
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        } else {
          socket.resetAndDestroy();
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    servers.push(server);
    const made = sender(['127.0.0.1']);
    senders.push(made);
    const url = `http://127.0.0.1:${port}/in`;
    expect((await made.send(attempt(url, 1))).statusCode).toBe(200);
    expect((await made.send(attempt(url, 2))).statusCode).toBe(200);
    expect(requestsPerConnection).toEqual([2, 1]);
  });
});
