import type { RouteDefinition } from '../http/route-definition';
import { INTEGRATION_KINDS } from './integration';
import { INTEGRATION_NAMES, toIntegrationRecord } from './integration-record';
import { refuseUnknownQuery } from '../validation/query-parameters';
import type { PartnerIntegration } from './integration';
import type { IntegrationsService } from './integrations.service';

/** GET, PUT and DELETE /integrations/google_ads and /integrations/ga4 (docs/conversions.md). */
export function integrationRoutes(service: IntegrationsService): RouteDefinition[] {
  return INTEGRATION_KINDS.flatMap((kind): RouteDefinition[] => [
    {
      method: 'GET',
      path: `/integrations/${kind}`,
      handle: async ({ partner, query }) => {
        refuseUnknownQuery(query);
        return answer(await service.get(partner.id, kind));
      },
    },
    {
      method: 'PUT',
      path: `/integrations/${kind}`,
      handle: async ({ partner, query, body, now }) => {
        refuseUnknownQuery(query);
        return answer(await service.put(partner.id, kind, body, now));
      },
    },
    {
      method: 'DELETE',
      path: `/integrations/${kind}`,
      handle: async ({ partner, query }) => {
        refuseUnknownQuery(query);
        return answer(await service.remove(partner.id, kind));
      },
    },
  ]);
}

function answer(integration: PartnerIntegration) {
  return { kind: 'records' as const, names: INTEGRATION_NAMES, records: [toIntegrationRecord(integration)] };
}
