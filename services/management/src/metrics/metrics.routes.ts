import { metricsHandler, type Logger, type Registry } from '@trackline/platform';
import type { Request, Response } from 'express';
import type { AddressList } from '../http/address-list';
import { clientAddress } from '../http/client-address';
import { JSON_TYPE } from '../http/response-renderer';

export interface MetricsEndpointDeps {
  registry: Registry;
  /** METRICS_ALLOW_IP: the scrapers' addresses. */
  allowFrom: AddressList;
  trustedProxies: AddressList;
  logger: Logger;
}

/**
 * `GET /metrics` on the management port, like `/health` over HTTPS and plain HTTP and without
 * digest credentials (Prometheus scrapes with neither), but only for METRICS_ALLOW_IP: the series
 * name every partner and its pool size, which the partner API shows each partner only for itself.
 */
export function metricsEndpoint(deps: MetricsEndpointDeps) {
  const serve = metricsHandler(deps.registry, deps.logger);
  return (req: Request, res: Response): void => {
    if (!deps.allowFrom.contains(clientAddress(req, deps.trustedProxies))) {
      const message = 'Metrics are not served to this address (METRICS_ALLOW_IP)';
      res
        .status(403)
        .type(JSON_TYPE)
        .send(JSON.stringify({ error: { status: 403, message } }));
      return;
    }
    serve(req, res);
  };
}
