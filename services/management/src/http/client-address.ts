import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { normaliseAddress, type AddressList } from './address-list';

/**
 * The client's address: the socket peer, or — when the peer is a trusted proxy — the right-most
 * X-Forwarded-For hop that is not itself a trusted proxy. The left-most entry is whatever the
 * client chose to send and is never believed (docs/partner-api.md, Transport and versions).
 */
export function clientAddress(req: IncomingMessage, trustedProxies: AddressList): string {
  const peer = normaliseAddress(req.socket.remoteAddress ?? '');
  if (!trustedProxies.contains(peer)) return peer;
  const hops = forwardedFor(req);
  let client = peer;
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    client = normaliseAddress(hops[index]);
    if (!trustedProxies.contains(client)) return client;
  }
  return client;
}

/**
 * HTTPS when TLS ended here, or when a trusted proxy says it ended there. A proxy appends its
 * own value, so the right-most X-Forwarded-Proto entry is the one the trusted proxy wrote.
 */
export function isHttps(req: IncomingMessage, trustedProxies: AddressList): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted === true) return true;
  const peer = normaliseAddress(req.socket.remoteAddress ?? '');
  if (!trustedProxies.contains(peer)) return false;
  const proto = headerValues(req, 'x-forwarded-proto');
  return proto.length > 0 && proto[proto.length - 1].toLowerCase() === 'https';
}

function forwardedFor(req: IncomingMessage): string[] {
  return headerValues(req, 'x-forwarded-for');
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const raw = req.headers[name];
  const joined = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return joined
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}
