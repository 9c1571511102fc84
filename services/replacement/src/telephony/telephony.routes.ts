import type { SwitchRouteDefinition } from '../http/route-definition';
import { withStoreDeadline } from '../http/store-deadline';
import type { ReplacementMetrics } from '../metrics/replacement-metrics';
import type { CallRoutingService } from './call-routing.service';
import { parseRouteCallRequest } from './telephony.request';

export interface TelephonyRoutesDeps {
  service: CallRoutingService;
  telephonyToken: string;
  clock: () => number;
  storeDeadlineMs: number;
  metrics: Pick<ReplacementMetrics, 'routeDecision' | 'unknownNumberCalled'>;
}

/**
 * `POST /telephony/route` for the switch (docs/telephony.md), a route definition for the one
 * registration (http/mount-routes.ts). Errors use the operator APIs' shape,
 * `{"error": {"status", "message"}}`, with real HTTP statuses; a store outage is 503
 * `Routing store unavailable`.
 */
export function telephonyRoutes(deps: TelephonyRoutesDeps): SwitchRouteDefinition[] {
  return [
    {
      method: 'POST',
      path: '/telephony/route',
      access: 'switch',
      token: deps.telephonyToken,
      handle: async ({ body, log }) => {
        const input = parseRouteCallRequest(body, new Date(deps.clock()));
        // Routing reads up to four keys in sequence, so it gets twice the replacement budget.
        const { decision, staleRoute } = await withStoreDeadline(
          deps.service.route(input),
          deps.storeDeadlineMs * 2,
        );
        if (staleRoute) {
          log.warn(
            { callId: input.callId, sourceId: decision.source_id },
            'source route from an older projection version: busy/no-answer diversion unknown until management rebuilds projections (projections:rebuild)',
          );
        }
        deps.metrics.routeDecision(decision.action);
        if (decision.partner === null) deps.metrics.unknownNumberCalled('switch');
        return { kind: 'json', body: decision };
      },
    },
  ];
}
