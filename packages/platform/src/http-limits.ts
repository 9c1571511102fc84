import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { EnvReader } from './env-config';

/**
 * How long a client may take, per connection, before the server hangs up (docs/configuration.md,
 * HTTP limits). Node's own defaults hold a slow client for minutes (a body trickled at one byte
 * every two seconds stays open until the 300 s request timeout, checked only every 30 s).
 */
export interface HttpLimits {
  /** HTTP_HEADERS_TIMEOUT_MS: the request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: the whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** HTTP_MAX_REQUESTS_PER_SOCKET: requests one keep-alive connection may carry (0: no limit). */
  maxRequestsPerSocket: number;
}

/** The largest request header section Node accepts (its default; docs/configuration.md). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** How often Node looks for connections past their timeouts; bounds how late a timeout fires. */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

export function readHttpLimits(read: EnvReader, defaults: HttpLimits): HttpLimits {
  const headersTimeoutMs = read.integer('HTTP_HEADERS_TIMEOUT_MS', defaults.headersTimeoutMs, {
    min: 1_000,
    max: 120_000,
  });
  const requestTimeoutMs = read.integer('HTTP_REQUEST_TIMEOUT_MS', defaults.requestTimeoutMs, {
    min: 1_000,
    max: 600_000,
  });
  if (requestTimeoutMs < headersTimeoutMs) {
    read.reject('HTTP_REQUEST_TIMEOUT_MS', 'must be at least HTTP_HEADERS_TIMEOUT_MS');
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: read.integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', defaults.keepAliveTimeoutMs, {
      min: 100,
      max: 600_000,
    }),
    maxRequestsPerSocket: read.integer('HTTP_MAX_REQUESTS_PER_SOCKET', defaults.maxRequestsPerSocket, {
      min: 0,
      max: 1_000_000,
    }),
  };
}

/** Options for `http.createServer`/`https.createServer` that enforce the limits. */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
}

/** Settings Node takes only as properties of a created server. */
export function applyHttpLimits(server: Server, limits: HttpLimits): void {
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
}

/** A plain HTTP server that enforces the limits. */
export function createLimitedHttpServer(limits: HttpLimits, listener: RequestListener): Server {
  const server = createServer(httpServerOptions(limits), listener);
  applyHttpLimits(server, limits);
  return server;
}
