import { createServer, request } from 'node:http';
import { closeGracefully, listen } from './http-lifecycle';

describe('closeGracefully', () => {
  it('lets an in-flight request finish, refuses new connections, then runs the closers', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The handler answers only when the test releases it, so the request is in flight for certain.
    const events: string[] = [];
    const server = createServer((_req, res) => {
      arrived();
      void released.then(() => {
        events.push('answered');
        res.end('done');
      });
    });
    const port = await listen(server, 0, '127.0.0.1');
    const inFlight = new Promise<string>((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });
    await requestArrived;
    const closing = closeGracefully([server], [async () => events.push('pool closed')], 2000);
    expect(server.listening).toBe(false);
    release();
    await closing;
    await expect(inFlight).resolves.toBe('done');
    // The closers ran after the request in flight was answered.
    expect(events).toEqual(['answered', 'pool closed']);
  });
});
