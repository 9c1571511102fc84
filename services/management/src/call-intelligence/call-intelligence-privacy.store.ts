import type { EntityManager } from 'typeorm';
import { deleteRowsOfRemovedRecords } from '../db/rows-of-removed-records';

// A recording holds the caller's voice, a transcript their words, a job points at both: all go
// with the record (docs/privacy.md).
const TABLES = ['call_recordings', 'transcription_jobs', 'transcripts'] as const;

/** The call-intelligence feature's door to its tables for retention and erasure (docs/privacy.md). */
export class CallIntelligencePrivacyStore {
  constructor(private readonly manager: EntityManager) {}

  /** The rows of records the data lifecycle removed; answers how many recordings went. */
  async deleteOrphaned(): Promise<number> {
    let recordings = 0;
    for (const table of TABLES) {
      const count = await deleteRowsOfRemovedRecords(this.manager, table);
      if (table === 'call_recordings') recordings = count;
    }
    return recordings;
  }

  /**
   * The recordings, jobs and transcripts of an erased caller's records (the records stay, masked);
   * answers how many recordings went.
   */
  async eraseRecords(cdrIds: readonly string[]): Promise<number> {
    if (cdrIds.length === 0) return 0;
    let recordings = 0;
    for (const table of TABLES) {
      const [{ count }] = (await this.manager.query(
        `WITH "gone" AS (DELETE FROM "${table}" WHERE "cdr_id" = ANY($1::bigint[]) RETURNING 1)
         SELECT count(*)::int AS "count" FROM "gone"`,
        [cdrIds],
      )) as Array<{ count: number }>;
      if (table === 'call_recordings') recordings = count;
    }
    return recordings;
  }
}
