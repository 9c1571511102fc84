import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { applyHttpLimits, httpServerOptions, type HttpLimits } from '@trackline/platform';
import type { TlsMaterial } from './tls-certificate';

/** First byte of every TLS connection: a handshake record. */
const TLS_HANDSHAKE = 0x16;

export interface HttpsFront {
  /** The listening socket; one port serves TLS and (refused or proxied) plain HTTP. */
  server: NetServer;
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting, lets in-flight requests finish, closes idle connections; forces after the deadline. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * One port, two protocols: the first byte of a connection tells a TLS handshake (handed to an
 * https.Server) from plain HTTP (handed to an http.Server running the same app, which refuses it
 * with 403 unless a trusted proxy vouches for HTTPS). A separate plain port would let clients
 * silently fall back to cleartext; answering 403 on the same port tells them what is wrong.
 */
export function createHttpsFront(tls: TlsMaterial, app: RequestListener, limits: HttpLimits): HttpsFront {
  const tlsServer = createHttpsServer(
    { ...httpServerOptions(limits), cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' },
    app,
  );
  const plainServer = createHttpServer(httpServerOptions(limits), app);
  const rawSockets = new Set<Socket>();
  const inFlight = new Map<Duplex, number>();
  let closing = false;

  for (const inner of [tlsServer, plainServer]) {
    applyHttpLimits(inner, limits);
    inner.on('request', (req: IncomingMessage, res: ServerResponse) => trackRequest(req.socket, res));
  }
  tlsServer.on('secureConnection', (socket: Duplex) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // A failed handshake (a scanner, a client that distrusts the certificate) only ends that connection.
  tlsServer.on('tlsClientError', (_error, socket: Duplex) => socket.destroy());

  function trackRequest(socket: Duplex, res: ServerResponse): void {
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (closing && left === 0) socket.end();
    });
  }

  const server = createNetServer((socket) => {
    rawSockets.add(socket);
    socket.once('close', () => rawSockets.delete(socket));
    // A TLS handshake and the headers after it must both fit in the headers timeout.
    socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === TLS_HANDSHAKE) {
        // The TLS socket takes over the handle and replays the buffered first chunk itself.
        tlsServer.emit('connection', socket);
      } else {
        inFlight.set(socket, 0);
        socket.once('close', () => inFlight.delete(socket));
        plainServer.emit('connection', socket);
        // The HTTP parser reads through 'data' events; the pause above kept the first chunk for it.
        socket.resume();
      }
    });
    socket.on('error', () => socket.destroy());
  });

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          // The inner servers never listen themselves; Node starts enforcing headersTimeout and
          // requestTimeout on a server's connections when it emits 'listening'.
          tlsServer.emit('listening');
          plainServer.emit('listening');
          const address = server.address();
          resolve(typeof address === 'object' && address !== null ? address.port : port);
        });
      }),
    close: (timeoutMs) =>
      new Promise<void>((resolve) => {
        closing = true;
        const deadline = setTimeout(() => {
          for (const socket of rawSockets) socket.destroy();
          resolve();
        }, timeoutMs);
        deadline.unref();
        server.close(() => {
          clearTimeout(deadline);
          resolve();
        });
        // Stops the inner servers' timeout checks (they have no socket of their own to close).
        tlsServer.close();
        plainServer.close();
        for (const [socket, count] of inFlight) if (count === 0) socket.end();
        // Connections still before their first byte or inside the TLS handshake carry no request yet.
        for (const socket of rawSockets) if (!isDispatched(socket, inFlight)) socket.destroy();
      }),
  };
}

function isDispatched(socket: Socket, inFlight: Map<Duplex, number>): boolean {
  if (inFlight.has(socket)) return true;
  for (const tracked of inFlight.keys()) {
    if ((tracked as Duplex & { _parent?: unknown })._parent === socket) return true;
  }
  return false;
}
