import { ServiceUnavailableError } from '@trackline/domain';
import type { CdrIngestion } from './cdr-ingestion.service';
import type { IngestOutcome } from './cdr-ingest-outcome';
import type { CdrInput } from './cdr-input';

/** Requests of at most this many records wait for each other; larger ones are batches already. */
export const MERGE_MAX_RECORDS = 50;

interface Waiting {
  records: readonly CdrInput[];
  now: Date;
  resolve(outcomes: IngestOutcome[]): void;
  reject(error: unknown): void;
}

/**
 * Small requests stored together (docs/cdrs.md, "Calls posted one at a time"). A switch posts most
 * calls one by one as they end, and each alone would pay for the batch's lookups and transaction.
 * Here one merged batch is written at a time: a request that arrives while one is being written
 * waits for it, and everything that arrived meanwhile (up to MERGE_MAX_RECORDS records) goes in the
 * next. An idle process writes a request at once, so nothing waits unless a write is under way; under
 * load the batches grow, and the work per call falls instead of the calls queueing for the cores.
 *
 * Each request still gets its own outcomes, in its order, as if it had been stored alone: a record
 * that fails fails alone (the batch's per-record fallback), and a call id sent in two merged
 * requests is stored by the first and found stored by the second. Requests of more records go
 * straight through, as many at a time as arrive.
 */
export function mergedIngestion(inner: CdrIngestion): CdrIngestion {
  const waiting: Waiting[] = [];
  let writing = false;

  const writeNext = async (): Promise<void> => {
    writing = true;
    try {
      while (waiting.length > 0) await writeMerged(inner, takeBatch(waiting));
    } finally {
      writing = false;
    }
  };

  return {
    ingest: (records, now) => {
      if (records.length > MERGE_MAX_RECORDS) return inner.ingest(records, now);
      return new Promise<IngestOutcome[]>((resolve, reject) => {
        waiting.push({ records, now, resolve, reject });
        if (!writing) void writeNext();
      });
    },
  };
}

/** The waiting requests from the front, up to MERGE_MAX_RECORDS records (always at least one). */
function takeBatch(waiting: Waiting[]): Waiting[] {
  let records = 0;
  let count = 0;
  while (
    count < waiting.length &&
    (count === 0 || records + waiting[count]!.records.length <= MERGE_MAX_RECORDS)
  ) {
    records += waiting[count]!.records.length;
    count += 1;
  }
  return waiting.splice(0, count);
}

async function writeMerged(inner: CdrIngestion, merged: readonly Waiting[]): Promise<void> {
  // A fault thrown before the write's promise exists still answers the requests.
  const write = (records: readonly CdrInput[], now: Date) =>
    Promise.resolve().then(() => inner.ingest(records, now));
  if (merged.length === 1) {
    const [only] = merged;
    await write(only!.records, only!.now).then(only!.resolve, only!.reject);
    return;
  }
  // The batch is stored at the latest of its requests' times: none of them is later than the write.
  const now = new Date(Math.max(...merged.map((request) => request.now.getTime())));
  let outcomes: IngestOutcome[];
  try {
    outcomes = await write(
      merged.flatMap((request) => request.records),
      now,
    );
  } catch (error) {
    if (error instanceof ServiceUnavailableError) {
      for (const request of merged) request.reject(error);
      return;
    }
    // An unexpected fault must not reach requests that would not have met it alone.
    for (const request of merged)
      await write(request.records, request.now).then(request.resolve, request.reject);
    return;
  }
  let next = 0;
  for (const request of merged) {
    request.resolve(outcomes.slice(next, next + request.records.length));
    next += request.records.length;
  }
}
