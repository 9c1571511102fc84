import type { ApiResponse } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { PRICING_MODEL_NAMES, toPricingModelRecord } from './pricing-model-record';
import type { PricingModelView } from './pricing-model';
import { parseCreatePricingModel, parseUpdatePricingModel } from './pricing-models.dto';
import type { PricingModelsService } from './pricing-models.service';

/**
 * GET/POST /pricing_models and GET/PUT/DELETE /pricing_models/:pricingModelId (seed, docs/partner-api.md).
 */
export function pricingModelRoutes(service: PricingModelsService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/pricing_models',
      handle: async ({ partner }) => pricingModelsResponse(await service.list(partner.id)),
    },
    {
      method: 'POST',
      path: '/pricing_models',
      handle: async ({ partner, body }) =>
        pricingModelsResponse([await service.create(partner.id, parseCreatePricingModel(body))]),
    },
    {
      method: 'GET',
      path: '/pricing_models/:pricingModelId',
      handle: async ({ partner, params }) =>
        pricingModelsResponse([await service.get(partner.id, params.pricingModelId ?? '')]),
    },
    {
      method: 'PUT',
      path: '/pricing_models/:pricingModelId',
      handle: async ({ partner, params, body }) => {
        const changes = parseUpdatePricingModel(body);
        return pricingModelsResponse([
          await service.update(partner.id, params.pricingModelId ?? '', changes),
        ]);
      },
    },
    {
      method: 'DELETE',
      path: '/pricing_models/:pricingModelId',
      // Answers with the record as it was, so the client sees what it removed.
      handle: async ({ partner, params }) =>
        pricingModelsResponse([await service.delete(partner.id, params.pricingModelId ?? '')]),
    },
  ];
}

function pricingModelsResponse(views: PricingModelView[]): ApiResponse {
  return { kind: 'records', names: PRICING_MODEL_NAMES, records: views.map(toPricingModelRecord) };
}
