import { bearerTokenMatches, UnauthorizedError, ValidationError } from '@trackline/domain';
import { Router, type Request, type Response } from 'express';
import { toHttpError } from '../http/error-mapper';
import { sendJson } from '../http/json-response';
import { readRawBody } from '../http/raw-body';
import { StoreUnavailableError } from '../resilience/store-unavailable-error';
import { withStoreDeadline } from '../http/store-deadline';
import type { ReplacementMetrics } from '../metrics/replacement-metrics';
import type { CallRoutingService } from './call-routing.service';
import { parseRouteCallRequest } from './telephony.request';

export interface TelephonyRoutesDeps {
  service: CallRoutingService;
  telephonyToken: string;
  clock: () => number;
  storeDeadlineMs: number;
  metrics: Pick<ReplacementMetrics, 'routeDecision' | 'redisFailure'>;
}

/**
 * `POST /telephony/route` for the switch (docs/telephony.md). Errors use the operator APIs' shape,
 * `{"error": {"status", "message"}}`, with real HTTP statuses; a store outage is 503
 * `Routing store unavailable` (http/error-mapper.ts).
 */
export function telephonyRoutes(deps: TelephonyRoutesDeps): Router {
  const router = Router();
  router.post('/telephony/route', async (req: Request, res: Response) => {
    try {
      if (!bearerTokenMatches(req.headers.authorization, deps.telephonyToken)) {
        throw new UnauthorizedError('A valid bearer token is required');
      }
      const input = parseRouteCallRequest(parseJson(await readRawBody(req)), new Date(deps.clock()));
      // Routing reads up to four keys in sequence, so it gets twice the replacement budget.
      const { decision, staleRoute } = await withStoreDeadline(
        deps.service.route(input),
        deps.storeDeadlineMs * 2,
      );
      if (staleRoute) {
        req.log.warn(
          { callId: input.callId, sourceId: decision.source_id },
          'source route from an older projection version: busy/no-answer diversion unknown until management rebuilds projections (projections:rebuild)',
        );
      }
      deps.metrics.routeDecision(decision.action);
      sendJson(res, 200, decision);
    } catch (error) {
      const { status, message } = toHttpError(error, req.log);
      if (error instanceof StoreUnavailableError) deps.metrics.redisFailure(error.timedOut);
      const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
      sendJson(res, status, { error: { status, message } }, headers);
    }
  });
  return router;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ValidationError('body', 'must be JSON');
  }
}
