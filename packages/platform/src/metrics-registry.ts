import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Logger } from 'pino';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * A service's own metrics registry (never prom-client's global one, so two apps in one test process
 * do not share counters), with the default process and Node.js metrics (`process_*`, `nodejs_*`).
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/**
 * `GET /metrics`: the registry in the Prometheus text format (version 0.0.4). Collection is done on
 * every scrape (some gauges read the stores then); a failure answers 500 so the scrape shows as
 * failed (`up` stays 1, the sample is missing) rather than as stale numbers.
 */
export function metricsHandler(
  registry: Registry,
  logger: Logger,
  /** More headers, computed as the answer is written (e.g. the replacement service's Server-Timing). */
  extraHeaders?: (res: ServerResponse) => OutgoingHttpHeaders,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          'Content-Type': registry.contentType,
          'Content-Length': Buffer.byteLength(text),
          'Cache-Control': 'no-store',
          ...extraHeaders?.(res),
        });
        res.end(text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics collection failed');
        const text = 'metrics collection failed\n';
        res.writeHead(500, {
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
      },
    );
  };
}
