import { callIdProblem } from '@trackline/contracts';
import { NotFoundError, ValidationError } from '@trackline/domain';
import type { CdrReference } from '../cdrs/cdr-outcomes.store';
import type { RouteDefinition } from '../http/route-definition';
import { refuseUnknownQuery } from '../validation/query-parameters';
import { isBigintId } from '../validation/record-id';
import { OUTCOME_NAMES, toOutcomeRecord } from './outcome-record';
import type { OutcomesService } from './outcomes.service';

/**
 * A call's outcome (docs/conversions.md, Outcomes): `/cdrs/<cdr_id>/outcome` (also
 * `/cdrs/outcome?cdr_id=<cdr_id>`, the seed's sub-resource form) and `/cdrs/outcome?call_id=<call_id>`.
 */
export function outcomeRoutes(service: OutcomesService): RouteDefinition[] {
  const byId = ({ cdrId }: Record<string, string>): CdrReference => {
    // An id no record can have names nothing (docs/partner-api.md, Errors).
    if (cdrId === undefined || !isBigintId(cdrId)) throw new NotFoundError(`call record ${cdrId}`);
    return { cdrId };
  };
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
  refuseUnknownQuery(query, ['call_id']);
  const callId = query.call_id;
  if (callId === undefined)
    throw new ValidationError('call_id', 'is required (or name the record: /cdrs/<cdr_id>/outcome)');
  const problem = callIdProblem(callId);
  if (problem !== undefined) throw new ValidationError('call_id', problem);
  return { callId };
}

function answer(cdr: Parameters<typeof toOutcomeRecord>[0]) {
  return { kind: 'records' as const, names: OUTCOME_NAMES, records: [toOutcomeRecord(cdr)] };
}
