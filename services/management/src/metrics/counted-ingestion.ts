import type { CdrIngestionService } from '../cdrs/cdr-ingestion.service';
import { ServiceUnavailableError } from '@trackline/domain';
import type { CdrIngestResult, ManagementMetrics } from './management-metrics';

type Ingestion = Pick<CdrIngestionService, 'ingest'>;

/**
 * CDR ingestion with each record's outcome counted: stored, duplicate (call_id seen before), or the
 * reason it was not stored (docs/operations.md, metrics). A batch refused whole because a store is
 * unreachable counts each of its records as `unavailable`.
 */
export function countedIngestion(
  ingestion: Ingestion,
  metrics: Pick<ManagementMetrics, 'cdrIngested'>,
): Ingestion {
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
      const counts = new Map<CdrIngestResult, number>();
      for (const outcome of outcomes) {
        const result: CdrIngestResult = outcome.ok
          ? outcome.created
            ? 'stored'
            : 'duplicate'
          : outcome.reason;
        counts.set(result, (counts.get(result) ?? 0) + 1);
      }
      for (const [result, count] of counts) metrics.cdrIngested(result, count);
      return outcomes;
    },
  };
}
