/** What POST /telephony/cdrs counts of each record (docs/operations.md, Metrics). */
export const CDR_INGEST_RESULTS = [
  'stored',
  'duplicate',
  'invalid',
  'unknown_number',
  'unavailable',
  'error',
] as const;
export type CdrIngestResult = (typeof CDR_INGEST_RESULTS)[number];
/** How a batch of call records was stored (docs/cdrs.md, "How a batch is stored"). */
export const CDR_BATCH_PATHS = ['one_transaction', 'per_record'] as const;
export type CdrBatchPath = (typeof CDR_BATCH_PATHS)[number];

/**
 * The counters ingestion reports to: each record's result and how each batch was stored. The
 * metrics feature implements it (ManagementMetrics), composition hands it over.
 */
export interface IngestMetrics {
  cdrIngested(result: CdrIngestResult, count?: number): void;
  cdrBatch(path: CdrBatchPath): void;
}
