import { ServiceUnavailableError } from '@trackline/domain';
import type { Cdr } from './cdr';
import type { IngestOutcome } from './cdr-ingest-outcome';
import { countedIngestion } from './counted-ingestion';
import type { CdrIngestResult } from './cdr-ingest-metrics';

const cdr = {} as Cdr;
const failure = (status: number, reason: Extract<IngestOutcome, { ok: false }>['reason']): IngestOutcome => ({
  ok: false,
  callId: 'c',
  status,
  message: 'm',
  reason,
});

describe('countedIngestion', () => {
  it('counts each record by its result, failures by reason', async () => {
    const counts = new Map<CdrIngestResult, number>();
    const metrics = {
      cdrIngested: (result: CdrIngestResult, n = 1) => void counts.set(result, (counts.get(result) ?? 0) + n),
    };
    const outcomes: IngestOutcome[] = [
      { ok: true, cdr, created: true },
      { ok: true, cdr, created: true },
      { ok: true, cdr, created: false },
      failure(400, 'invalid'),
      failure(404, 'unknown_number'),
      failure(503, 'unavailable'),
      failure(500, 'error'),
    ];
    const counted = countedIngestion({ ingest: async () => outcomes }, metrics);
    expect(await counted.ingest(new Array(outcomes.length).fill({}), new Date())).toBe(outcomes);
    expect(Object.fromEntries(counts)).toEqual({
      stored: 2,
      duplicate: 1,
      invalid: 1,
      unknown_number: 1,
      unavailable: 1,
      error: 1,
    });
  });

  it('counts every record of a batch refused whole as unavailable', async () => {
    const counts = new Map<CdrIngestResult, number>();
    const metrics = {
      cdrIngested: (result: CdrIngestResult, n = 1) => void counts.set(result, (counts.get(result) ?? 0) + n),
    };
    const counted = countedIngestion(
      { ingest: () => Promise.reject(new ServiceUnavailableError('down')) },
      metrics,
    );
    await expect(counted.ingest(new Array(3).fill({}), new Date())).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(Object.fromEntries(counts)).toEqual({ unavailable: 3 });
  });
});
