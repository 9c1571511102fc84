import { Router, type Request, type Response } from 'express';
import { toHttpError } from '../http/error-mapper';
import { sendJson } from '../http/json-response';
import { readRawBody } from '../http/raw-body';
import { withStoreDeadline } from '../http/store-deadline';
import { failureBody, responseStatus } from './dynamic-numbers.response';
import type { DynamicNumbersService } from './dynamic-numbers.service';

export interface DynamicNumbersRoutesDeps {
  service: DynamicNumbersService;
  /** Epoch ms of "now" for the pool rules. */
  clock: () => number;
  storeDeadlineMs: number;
}

/** `POST /dynamic-numbers` and `POST /` (SPEC §3). */
export function dynamicNumbersRoutes(deps: DynamicNumbersRoutesDeps): Router {
  const router = Router();
  const handle = async (req: Request, res: Response): Promise<void> => {
    const wantsHttpStatuses = req.headers['x-http-statuses'] !== undefined;
    try {
      const body = await readRawBody(req);
      const result = await withStoreDeadline(
        deps.service.replace(body, signatureOf(req), deps.clock()),
        deps.storeDeadlineMs,
      );
      sendJson(res, 200, result);
    } catch (error) {
      const { status, message } = toHttpError(error, req.log);
      sendJson(res, responseStatus(status, wantsHttpStatuses), failureBody(message));
    }
  };
  router.post('/dynamic-numbers', handle);
  router.post('/', handle);
  return router;
}

// `?sign=` or `X-SIGN` (seed, Authentication); a repeated parameter is not a signature.
function signatureOf(req: Request): string | undefined {
  const fromQuery = (req.query as Record<string, unknown>).sign;
  if (typeof fromQuery === 'string') return fromQuery;
  const fromHeader = req.headers['x-sign'];
  return typeof fromHeader === 'string' ? fromHeader : undefined;
}
