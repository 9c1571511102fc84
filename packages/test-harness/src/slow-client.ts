import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface SlowClientResult {
  /** How long the server kept the connection before closing it. */
  heldMs: number;
  /** Bytes the client managed to send before the server hung up. */
  sentBytes: number;
  /** What the server wrote back, if anything. */
  received: string;
}

/**
 * A client that sends `head` (request line and headers, or part of them) at once, then `trickle`
 * one byte every `intervalMs`, the way a slowloris client holds a connection. Resolves when the
 * server closes the connection, or after the whole trickle was sent (then `sentBytes` tells).
 */
export function slowClient(
  port: number,
  head: string,
  trickle: string,
  intervalMs: number,
): Promise<SlowClientResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent >= trickle.length) {
          clearInterval(timer);
          socket.destroy();
          return;
        }
        if (!socket.writable) return;
        socket.write(trickle[sent]);
        sent += 1;
      }, intervalMs);
    });
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ heldMs: performance.now() - started, sentBytes: sent, received });
    });
    socket.once('timeout', () => reject(new Error('unreachable')));
  });
}
