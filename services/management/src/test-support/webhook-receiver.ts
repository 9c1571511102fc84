import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  /** The raw body, exactly as sent (what a signature is checked against). */
  body: string;
  path: string;
}

/** What the receiver does with a request: a status (and body, headers), after an optional wait. */
export interface ReceiverAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Resolves when the answer may go out; a test holds a request open with it. */
  wait?: Promise<void>;
}

/**
 * A real HTTP webhook receiver on a loopback port, as a partner would run one: it records every
 * request and answers as `answer` says (default 200). `stop` and `restart` take it off and back
 * onto the same port, for "the receiver was down for a while".
 */
export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer = () => ({ status: 200 }),
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedWebhook = {
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        path: req.url ?? '/',
      };
      const index = received.push(request) - 1;
      const reply = answer(request, index);
      void (reply.wait ?? Promise.resolve()).then(() => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      });
    });
  };
  let server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    stop: close,
    restart: async () => {
      server = createServer(handle);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () => (server.listening ? close() : Promise.resolve()),
  };
}
