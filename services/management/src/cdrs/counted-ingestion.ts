import { ServiceUnavailableError } from '@trackline/domain';
import type { CdrIngestion } from './cdr-ingestion.service';
import type { IngestOutcome } from './cdr-ingest-outcome';
import type { CdrIngestResult, IngestMetrics } from './cdr-ingest-metrics';

export type IngestCounter = Pick<IngestMetrics, 'cdrIngested'>;

/**
 * CDR ingestion with each record's outcome counted: stored, duplicate (call_id seen before), or the
 * reason it was not stored (docs/operations.md, metrics). A batch refused whole because a store is
 * unreachable counts each record it was given as `unavailable`; a record the switch's route refused
 * before ingestion was counted there (`countOutcomes`), as `invalid`.
 */
export function countedIngestion(ingestion: CdrIngestion, metrics: IngestCounter): CdrIngestion {
  return {
    ingest: async (records, now) => {
      let outcomes;
      try {
        outcomes = await ingestion.ingest(records, now);
      } catch (error) {
        if (error instanceof ServiceUnavailableError) metrics.cdrIngested('unavailable', records.length);
        else metrics.cdrIngested('error', records.length);
        throw error;
      }
      countOutcomes(metrics, outcomes);
      return outcomes;
    },
  };
}

/** Counts outcomes by result; also for records refused before they reached ingestion. */
export function countOutcomes(metrics: IngestCounter, outcomes: readonly IngestOutcome[]): void {
  const counts = new Map<CdrIngestResult, number>();
  for (const outcome of outcomes) {
    const result: CdrIngestResult = outcome.ok ? (outcome.created ? 'stored' : 'duplicate') : outcome.reason;
    counts.set(result, (counts.get(result) ?? 0) + 1);
  }
  for (const [result, count] of counts) metrics.cdrIngested(result, count);
}
