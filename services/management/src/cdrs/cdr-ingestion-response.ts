import type { ApiRecord } from '../http/api-response';
import { toCdrRecord } from './cdr-record';
import type { IngestOutcome } from './cdr-ingest-outcome';

export interface IngestResponse {
  status: number;
  body: unknown;
}

/**
 * The answer to POST /telephony/cdrs (docs/cdrs.md).
 * One record: 201 `{cdrs: [record]}` when stored, 200 when the call_id was stored before (the
 * stored record, unchanged), else the error's status with the usual error body.
 * An array: `{cdrs: [stored or earlier records, in input order], errors: [{index, call_id, status,
 * message}]}` with 200 when no record failed, 207 when some failed and some were stored, and 400
 * (or the one status all failures share) when none was stored.
 */
export function ingestResponse(outcomes: IngestOutcome[], batch: boolean): IngestResponse {
  if (!batch) {
    const outcome = outcomes[0]!;
    if (outcome.ok) return { status: outcome.created ? 201 : 200, body: { cdrs: [switchRecord(outcome)] } };
    return { status: outcome.status, body: { error: { status: outcome.status, message: outcome.message } } };
  }
  const cdrs: ApiRecord[] = [];
  const errors: ApiRecord[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.ok) cdrs.push(switchRecord(outcome));
    else
      errors.push({
        index: String(index),
        call_id: outcome.callId,
        status: String(outcome.status),
        message: outcome.message,
      });
  });
  const statuses = new Set(outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.status])));
  const status =
    errors.length === 0 ? 200 : cdrs.length > 0 ? 207 : statuses.size === 1 ? [...statuses][0]! : 400;
  return { status, body: { cdrs, errors } };
}

// The switch is the operator's own: it sees the caller whole, and the call_id it sent.
function switchRecord(outcome: Extract<IngestOutcome, { ok: true }>): ApiRecord {
  return { call_id: outcome.cdr.callId, ...toCdrRecord(outcome.cdr, { extended: true, showFullAnum: true }) };
}
