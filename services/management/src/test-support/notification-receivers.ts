import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  raw: string;
  messageId: string | undefined;
  to: string[];
}

/**
 * A real SMTP server on a free local port that keeps every message it receives (once the whole
 * DATA is in). The `250` answer waits for `answer` (default: at once), so a test can make the
 * server slow or hold the answer while the client dies: the message is then received but the
 * sender never learns it, which is how an SMTP resend happens.
 */
export async function startSmtpReceiver(
  answer: (mail: ReceivedMail, index: number) => void | Promise<void> = () => undefined,
): Promise<{
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          raw,
          messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1],
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        const index = messages.push(mail) - 1;
        void Promise.resolve(answer(mail, index)).then(() => callback());
      });
    },
  });
  // A client that dies mid-session resets its connection; that is the scenario, not a failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The attachment named `filename` in a raw MIME message, decoded from base64. */
export function attachmentOf(raw: string, filename: string): Buffer | undefined {
  const parts = raw.split(/\r?\n--/);
  const part = parts.find((p) => p.includes(`filename=${filename}`));
  if (part === undefined) return undefined;
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('');
  return Buffer.from(body.replace(/\s+/g, ''), 'base64');
}

export interface SmsRequest {
  at: number;
  body: { to?: unknown; text?: unknown; idempotency_key?: unknown };
  idempotencyHeader: string | undefined;
}

/**
 * A local SMS gateway: every request is recorded; the gateway honours idempotency_key like a real
 * one (a repeat of an accepted key is answered 200 and not sent again), so `delivered` counts the
 * messages a phone would receive. `answer` chooses the status per request (default 200).
 */
export async function startSmsGateway(
  answer: (request: SmsRequest, index: number) => number | Promise<number> = () => 200,
): Promise<{
  url: string;
  requests: SmsRequest[];
  delivered: Map<string, number>;
  close(): Promise<void>;
}> {
  const requests: SmsRequest[] = [];
  const delivered = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: SmsRequest = {
        at: Date.now(),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as SmsRequest['body'],
        idempotencyHeader: req.headers['idempotency-key'] as string | undefined,
      };
      const index = requests.push(request) - 1;
      void Promise.resolve(answer(request, index)).then((status) => {
        const key = String(request.body.idempotency_key);
        if (status === 200 && !delivered.has(key)) delivered.set(key, 1);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 200 ? '{"status":"queued"}' : '{"error":"unavailable"}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    requests,
    delivered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
