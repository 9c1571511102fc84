import type { CdrIngestionService } from '../cdrs/cdr-ingestion.service';
import type { ManagementMetrics } from './management-metrics';

type Ingestion = Pick<CdrIngestionService, 'ingest'>;

/** CDR ingestion with each record's outcome counted: stored, duplicate (call_id seen before) or rejected. */
export function countedIngestion(
  ingestion: Ingestion,
  metrics: Pick<ManagementMetrics, 'cdrIngested'>,
): Ingestion {
  return {
    ingest: async (records, now) => {
      const outcomes = await ingestion.ingest(records, now);
      let stored = 0;
      let duplicate = 0;
      for (const outcome of outcomes) {
        if (!outcome.ok) continue;
        if (outcome.created) stored += 1;
        else duplicate += 1;
      }
      metrics.cdrIngested('stored', stored);
      metrics.cdrIngested('duplicate', duplicate);
      metrics.cdrIngested('rejected', outcomes.length - stored - duplicate);
      return outcomes;
    },
  };
}
