import type { Request, Response } from 'express';
import { JSON_TYPE } from './response-renderer';

export interface ReadinessCheck {
  name: string;
  /** Resolves true when the dependency answers; never rejects. */
  check(): Promise<boolean>;
}

/**
 * `/health` (alive: the process answers) and `/ready` (Postgres and Redis answer) for load
 * balancers and orchestrators. No authentication, no partner data, and they answer over plain
 * HTTP too: probes often cannot present credentials or trust a self-signed certificate.
 */
export function healthHandlers(checks: readonly ReadinessCheck[]) {
  return {
    health: (_req: Request, res: Response): void => {
      res
        .status(200)
        .type(JSON_TYPE)
        .send(JSON.stringify({ status: 'ok' }));
    },
    ready: async (_req: Request, res: Response): Promise<void> => {
      const results = await Promise.all(
        checks.map(async (entry) => [entry.name, await entry.check()] as const),
      );
      const ready = results.every(([, ok]) => ok);
      const body = {
        status: ready ? 'ready' : 'unavailable',
        checks: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'unreachable'])),
      };
      res
        .status(ready ? 200 : 503)
        .type(JSON_TYPE)
        .send(JSON.stringify(body));
    },
  };
}
