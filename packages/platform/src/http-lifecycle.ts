import type { Server } from 'node:http';
import type { Logger } from 'pino';

/** Starts listening and resolves with the bound port (useful when port 0 asks for a free one). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * Stops accepting connections, lets in-flight requests finish (idle keep-alive sockets are closed
 * at once), then runs the closers (pools, clients). Gives up after `timeoutMs`.
 */
export async function closeGracefully(
  servers: Server[],
  closers: Array<() => Promise<unknown>>,
  timeoutMs: number,
): Promise<void> {
  const stopServers = Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      for (const server of servers) server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
  });
  await Promise.race([stopServers, deadline]);
  clearTimeout(timer);
  for (const close of closers) await close().catch(() => undefined);
}

/** SIGTERM / SIGINT run `shutdown` once; a second signal exits at once. */
export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    shutdown()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
