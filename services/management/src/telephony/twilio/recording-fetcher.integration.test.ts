import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '@trackline/domain';
import { RecordingFetcher } from './recording-fetcher';

const LIMIT = 1024 * 1024;

describe('RecordingFetcher.fetch against a host that streams without end', () => {
  let server: http.Server;
  let written = 0;
  let finished = false;
  let fetcher: RecordingFetcher;

  beforeAll(async () => {
    // 256 MiB in 64 KiB chunks, chunked (no Content-Length): only a count while streaming stops it.
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = (): void => {
        while (written < 256 * LIMIT) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        finished = true;
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    fetcher = new RecordingFetcher({
      allowedHosts: [host],
      accountSid: 'AC1',
      authToken: 'token',
      timeoutMs: 20_000,
      maxBytes: LIMIT,
    });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gives up past the size limit instead of reading the whole body', async () => {
    const port = (server.address() as AddressInfo).port;
    const failure = await fetcher.fetch(`http://127.0.0.1:${port}/r/RE1`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as ValidationError).message).toContain('recording is too large');
    // The client went away long before the 256 MiB were written.
    expect(finished).toBe(false);
    expect(written).toBeLessThan(64 * LIMIT);
  });
});
