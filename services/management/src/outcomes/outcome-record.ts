import { formatUtcTimestamp } from '@trackline/domain';
import type { Cdr } from '../cdrs/cdr';
import type { ApiRecord, ResourceNames } from '../http/api-response';

export const OUTCOME_NAMES: ResourceNames = { plural: 'outcomes', singular: 'outcome' };

/** The outcome of one call as GET and PUT answer it; every field null before the first PUT. */
export function toOutcomeRecord(cdr: Cdr): ApiRecord {
  return {
    cdr_id: cdr.id,
    call_id: cdr.callId,
    status: cdr.outcome?.status ?? null,
    value: cdr.outcome?.value ?? null,
    currency: cdr.outcome?.currency ?? null,
    note: cdr.outcome?.note ?? null,
    modified: cdr.outcome === null ? null : formatUtcTimestamp(cdr.outcome.at),
  };
}
