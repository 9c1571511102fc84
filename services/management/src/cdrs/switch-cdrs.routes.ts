import type { StoreOutages } from '@trackline/platform';
import type { ManagementStore } from '../http/error-handler';
import type { SwitchRouteDefinition } from '../http/route-definition';
import { ingestResponse } from './cdr-ingestion-response';
import type { CdrIngestion } from './cdr-ingestion.service';
import { classifyFailure, type IngestFailure, type IngestOutcome } from './cdr-ingest-outcome';
import type { CdrInput } from './cdr-input';
import { parseSwitchCdr, sentCallId, splitCdrBody } from './switch-cdr.dto';

// Base64 is 4/3 of the audio; 10 MiB of audio plus the JSON around it.
const BODY_LIMIT_BYTES = 14 * 1024 * 1024;

export interface SwitchCdrRouteDeps {
  /** Counted (cdrs/counted-ingestion.ts): each record it stores or refuses is counted there. */
  ingestion: CdrIngestion;
  /** Counts the records refused here, before ingestion (docs/operations.md, `trackline_cdrs_ingested_total`). */
  countRefused(failures: readonly IngestFailure[]): void;
  /** Where a record refused for a store outage is told (once per outage, docs/operations.md, Store outages). */
  outages?: StoreOutages<ManagementStore>;
  /** TELEPHONY_TOKEN; when unset every request is refused with 401. */
  token: string | undefined;
}

/**
 * POST /telephony/cdrs (docs/cdrs.md, docs/switch.md): the switch's JSON read into typed records,
 * each on its own, so a record that breaks a rule fails alone (docs/cdrs.md, "Batches"); the others
 * are ingested, and the answer holds every record in the order sent.
 */
export function switchCdrRoutes(deps: SwitchCdrRouteDeps): SwitchRouteDefinition[] {
  return [
    {
      method: 'POST',
      path: '/telephony/cdrs',
      access: 'switch',
      token: deps.token,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      body: 'records',
      handle: async ({ body, now, log }) => {
        const { records, batch } = splitCdrBody(body);
        const read = records.map(readRecord);
        const refused = read.filter((entry): entry is IngestFailure => 'ok' in entry);
        const inputs = read.filter((entry): entry is CdrInput => !('ok' in entry));
        deps.countRefused(refused);
        const ingested = inputs.length === 0 ? [] : await deps.ingestion.ingest(inputs, now);
        let next = 0;
        const outcomes = read.map((entry): IngestOutcome => ('ok' in entry ? entry : ingested[next++]!));
        const failed = outcomes.filter((outcome) => !outcome.ok).length;
        log.info({ records: records.length, failed }, 'call records ingested');
        let outageTold = false;
        for (const outcome of outcomes) {
          if (outcome.ok || outcome.cause === undefined) continue;
          // A store outage refuses many records: the request counts once, and the outage is one story.
          if (outcome.reason === 'unavailable' && deps.outages !== undefined) {
            if (outageTold || deps.outages.refused(outcome.cause, 'request')) {
              outageTold = true;
              continue;
            }
          }
          log.error(
            { err: outcome.cause, callId: outcome.callId, reason: outcome.reason },
            'call record not stored',
          );
        }
        const answer = ingestResponse(outcomes, batch);
        return { kind: 'json', status: answer.status, body: answer.body };
      },
    },
  ];
}

function readRecord(raw: unknown): CdrInput | IngestFailure {
  try {
    return parseSwitchCdr(raw);
  } catch (error) {
    return classifyFailure(sentCallId(raw), error);
  }
}
