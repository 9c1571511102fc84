import { createServer, request } from 'node:http';
import { closeGracefully, listen } from './http-lifecycle';

describe('closeGracefully', () => {
  it('lets an in-flight request finish, refuses new connections, then runs the closers', async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end('done'), 150);
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
    await new Promise((resolve) => setTimeout(resolve, 30));
    const closed: string[] = [];
    await closeGracefully([server], [async () => closed.push('pool')], 2000);
    await expect(inFlight).resolves.toBe('done');
    expect(closed).toEqual(['pool']);
    expect(server.listening).toBe(false);
  });
});
