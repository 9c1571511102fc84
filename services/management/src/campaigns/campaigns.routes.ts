import type { ApiResponse } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { CAMPAIGN_NAMES, toCampaignRecord } from './campaign-record';
import type { CampaignView } from './campaign';
import { parseCreateCampaign, parseUpdateCampaign } from './campaigns.dto';
import type { CampaignsService } from './campaigns.service';

const COLLECTION = '/customers/:customerId/campaigns';
const ONE = `${COLLECTION}/:campaignId`;

/**
 * Campaigns of a customer (seed "Operations", docs/partner-api.md). The HTTP layer maps the query-string form
 * (`/customers/campaigns?customer_id=…&campaign_id=…`) onto these paths.
 */
export function campaignRoutes(service: CampaignsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: COLLECTION,
      handle: async ({ partner, params }) =>
        campaignsResponse(await service.list(partner.id, params.customerId ?? '')),
    },
    {
      method: 'POST',
      path: COLLECTION,
      // The seed answers a created campaign as a single object, not an array.
      handle: async ({ partner, params, body }) => {
        const values = parseCreateCampaign(body, partner.country);
        const created = await service.create(partner.id, params.customerId ?? '', values);
        return { kind: 'record', names: CAMPAIGN_NAMES, record: toCampaignRecord(created) };
      },
    },
    {
      method: 'GET',
      path: ONE,
      handle: async ({ partner, params }) =>
        campaignsResponse([await service.get(partner.id, params.customerId ?? '', params.campaignId ?? '')]),
    },
    {
      method: 'PUT',
      path: ONE,
      handle: async ({ partner, params, body, now }) => {
        const changes = parseUpdateCampaign(body, partner.country);
        return campaignsResponse([
          await service.update(partner.id, params.customerId ?? '', params.campaignId ?? '', changes, now),
        ]);
      },
    },
    {
      method: 'DELETE',
      path: ONE,
      // Answers with the record as it was, so the client sees what it removed.
      handle: async ({ partner, params }) =>
        campaignsResponse([
          await service.delete(partner.id, params.customerId ?? '', params.campaignId ?? ''),
        ]),
    },
  ];
}

function campaignsResponse(views: CampaignView[]): ApiResponse {
  return { kind: 'records', names: CAMPAIGN_NAMES, records: views.map(toCampaignRecord) };
}
