import { renderFlag } from '@trackline/domain';
import type { ApiResponse, ApiValue, ResourceNames } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import { renderClassificationRules } from './classification-rules.dto';
import type { ClassificationRulesService, RulesInForce } from './classification-rules.service';

export const CLASSIFICATION_RULES_NAMES: ResourceNames = {
  plural: 'classification_rules',
  singular: 'classification_rule',
};

const SOURCE_PATH = '/sources/:sourceId/classification_rules';

/**
 * GET|PUT|DELETE /classification_rules, the partner's, and /sources/<source_id>/classification_rules
 * (docs/call-intelligence.md, API): one record of the rules in force — the lists, `builtin` and, for
 * a source, `source_id` and `own`.
 */
export function classificationRulesRoutes(service: ClassificationRulesService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/classification_rules',
      handle: async ({ partner }) => partnerAnswer(await service.partnerRules(partner.id)),
    },
    {
      method: 'PUT',
      path: '/classification_rules',
      handle: async ({ partner, body }) => partnerAnswer(await service.putPartnerRules(partner.id, body)),
    },
    {
      method: 'DELETE',
      path: '/classification_rules',
      handle: async ({ partner }) => partnerAnswer(await service.deletePartnerRules(partner.id)),
    },
    {
      method: 'GET',
      path: SOURCE_PATH,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        return sourceAnswer(sourceId, await service.sourceRules(partner.id, sourceId));
      },
    },
    {
      method: 'PUT',
      path: SOURCE_PATH,
      handle: async ({ partner, params, body }) => {
        const sourceId = params.sourceId ?? '';
        return sourceAnswer(sourceId, await service.putSourceRules(partner.id, sourceId, body));
      },
    },
    {
      method: 'DELETE',
      path: SOURCE_PATH,
      handle: async ({ partner, params }) => {
        const sourceId = params.sourceId ?? '';
        return sourceAnswer(sourceId, await service.deleteSourceRules(partner.id, sourceId));
      },
    },
  ];
}

function partnerAnswer(inForce: RulesInForce): ApiResponse {
  return answer({ ...renderClassificationRules(inForce.rules), builtin: renderFlag(inForce.builtin) });
}

function sourceAnswer(sourceId: string, inForce: RulesInForce): ApiResponse {
  return answer({
    source_id: sourceId,
    ...renderClassificationRules(inForce.rules),
    own: renderFlag(inForce.own),
    builtin: renderFlag(inForce.builtin),
  });
}

function answer(record: Record<string, ApiValue>): ApiResponse {
  return { kind: 'records', names: CLASSIFICATION_RULES_NAMES, records: [record] };
}
