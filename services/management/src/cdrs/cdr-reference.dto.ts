import { callIdProblem } from '@trackline/contracts';
import { NotFoundError, ValidationError } from '@trackline/domain';
import { refuseUnknownQuery } from '../validation/query-parameters';
import { isBigintId } from '../validation/record-id';
import type { CdrReference } from './cdr-outcomes.store';

/**
 * A call's sub-resource names its record by id (`/cdrs/<cdr_id>/<resource>`, also
 * `/cdrs/<resource>?cdr_id=`) or by the switch's call id (`/cdrs/<resource>?call_id=`):
 * docs/conversions.md (Outcomes), docs/call-intelligence.md (API).
 */
export function cdrReferenceById({ cdrId }: Record<string, string>): CdrReference {
  // An id no record can have names nothing (docs/partner-api.md, Errors).
  if (cdrId === undefined || !isBigintId(cdrId)) throw new NotFoundError(`call record ${cdrId}`);
  return { cdrId };
}

/** `resource` names the sub-resource in the hint of a missing call_id. */
export function cdrReferenceByCallId(query: Record<string, string>, resource: string): CdrReference {
  refuseUnknownQuery(query, ['call_id']);
  const callId = query.call_id;
  if (callId === undefined)
    throw new ValidationError('call_id', `is required (or name the record: /cdrs/<cdr_id>/${resource})`);
  const problem = callIdProblem(callId);
  if (problem !== undefined) throw new ValidationError('call_id', problem);
  return { callId };
}

/** The 404 of a reference that names no record of the partner's (another partner's is as unknown). */
export function recordNotFound(reference: CdrReference): NotFoundError {
  return new NotFoundError(
    'cdrId' in reference ? `call record ${reference.cdrId}` : `call with call_id ${reference.callId}`,
  );
}
