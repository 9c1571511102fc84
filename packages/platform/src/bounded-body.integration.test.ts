import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAtMost, type BoundedBody } from './bounded-body';

const MiB = 1024 * 1024;

/**
 * A server that streams `total` bytes in 64 KiB chunks, chunked (no Content-Length) or with the
 * Content-Length it is given (which may lie), and records how many bytes it managed to write before
 * the client went away.
 */
async function streamingServer(total: number, contentLength?: number) {
  const sent = { bytes: 0, finished: false };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, contentLength === undefined ? {} : { 'content-length': String(contentLength) });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (sent.bytes < total) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      sent.finished = true;
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, sent, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('readAtMost', () => {
  it('reads a body within the limit whole', async () => {
    const server = await streamingServer(256 * 1024);
    try {
      const body = await readAtMost(await fetch(server.url), MiB);
      expect(body.complete).toBe(true);
      expect(body.bytes.length).toBe(256 * 1024);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['chunked, without Content-Length', undefined],
    // It declares more than is sent, so only counting while reading stops the client at the limit.
    ['with a Content-Length that lies', 128 * MiB],
  ])('stops a body streaming past the limit (%s) without reading the rest', async (_name, length) => {
    const total = 64 * MiB;
    const server = await streamingServer(total, length === undefined ? undefined : length);
    try {
      const body: BoundedBody | Error = await readAtMost(await fetch(server.url), MiB).catch(
        (error: unknown) => error as Error,
      );
      if (body instanceof Error) {
        // A lying Content-Length ends the response at the declared size: the client refuses the
        // extra bytes itself, which is also a body that was not read on.
        expect(length).toBeDefined();
      } else {
        expect(body.bytes.length).toBeLessThanOrEqual(MiB);
        if (length === undefined) expect(body.complete).toBe(false);
      }
      // The server never got to write the whole 64 MiB: the client went away.
      expect(server.sent.finished).toBe(false);
    } finally {
      await server.close();
    }
  });
});
