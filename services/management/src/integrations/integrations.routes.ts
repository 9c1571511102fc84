import type { RouteDefinition } from '../http/route-definition';
import { INTEGRATION_KINDS } from './integration';
import { INTEGRATION_NAMES, toIntegrationRecord } from './integration-record';
import type { IntegrationsService } from './integrations.service';

/** GET, PUT and DELETE /integrations/google_ads and /integrations/ga4 (docs/conversions.md). */
export function integrationRoutes(service: IntegrationsService): RouteDefinition[] {
  return INTEGRATION_KINDS.flatMap((kind): RouteDefinition[] => [
    {
      method: 'GET',
      path: `/integrations/${kind}`,
      handle: async ({ partner }) => ({
        kind: 'records',
        names: INTEGRATION_NAMES,
        records: [toIntegrationRecord(await service.get(partner.id, kind))],
      }),
    },
    {
      method: 'PUT',
      path: `/integrations/${kind}`,
      handle: async ({ partner, body, now }) => ({
        kind: 'records',
        names: INTEGRATION_NAMES,
        records: [toIntegrationRecord(await service.put(partner.id, kind, body, now))],
      }),
    },
    {
      method: 'DELETE',
      path: `/integrations/${kind}`,
      handle: async ({ partner }) => ({
        kind: 'records',
        names: INTEGRATION_NAMES,
        records: [toIntegrationRecord(await service.remove(partner.id, kind))],
      }),
    },
  ]);
}
