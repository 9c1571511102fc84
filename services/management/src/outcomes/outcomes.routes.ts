import type { CdrReference } from '../cdrs/cdr-outcomes.store';
import { cdrReferenceByCallId, cdrReferenceById as byId } from '../cdrs/cdr-reference.dto';
import type { RouteDefinition } from '../http/route-definition';
import { refuseUnknownQuery } from '../validation/query-parameters';
import { OUTCOME_NAMES, toOutcomeRecord } from './outcome-record';
import type { OutcomesService } from './outcomes.service';

/**
 * A call's outcome (docs/conversions.md, Outcomes): `/cdrs/<cdr_id>/outcome` (also
 * `/cdrs/outcome?cdr_id=<cdr_id>`, the seed's sub-resource form) and `/cdrs/outcome?call_id=<call_id>`.
 */
export function outcomeRoutes(service: OutcomesService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/cdrs/:cdrId/outcome',
      handle: async ({ partner, params, query }) => {
        refuseUnknownQuery(query);
        return answer(await service.get(partner.id, byId(params)));
      },
    },
    {
      method: 'PUT',
      path: '/cdrs/:cdrId/outcome',
      handle: async ({ partner, params, query, body, now }) => {
        refuseUnknownQuery(query);
        return answer(await service.put(partner.id, byId(params), body, now));
      },
    },
    {
      method: 'GET',
      path: '/cdrs/outcome',
      handle: async ({ partner, query }) => answer(await service.get(partner.id, byCallId(query))),
    },
    {
      method: 'PUT',
      path: '/cdrs/outcome',
      handle: async ({ partner, query, body, now }) =>
        answer(await service.put(partner.id, byCallId(query), body, now)),
    },
  ];
}

function byCallId(query: Record<string, string>): CdrReference {
  return cdrReferenceByCallId(query, 'outcome');
}

function answer(cdr: Parameters<typeof toOutcomeRecord>[0]) {
  return { kind: 'records' as const, names: OUTCOME_NAMES, records: [toOutcomeRecord(cdr)] };
}
