import type { EntityManager } from 'typeorm';
import { deleteRowsOfRecords, deleteRowsOfRemovedRecords } from '../db/rows-of-removed-records';

// A recording holds the caller's voice, a transcript their words, a job points at both: all go
// with the record (docs/privacy.md). Recordings first, so a job still running finds no audio.
const TABLES = ['call_recordings', 'transcription_jobs', 'transcripts'] as const;

/** What went of the records' conversations: their recordings and their transcripts. */
export interface ConversationsDeleted {
  recordings: number;
  transcripts: number;
}

/**
 * The call-intelligence feature's one door to its tables for retention and erasure
 * (docs/privacy.md): recordings, transcription jobs and transcripts go together.
 */
export class CallIntelligencePrivacyStore {
  constructor(private readonly manager: EntityManager) {}

  /** The rows of records the data lifecycle removed. */
  deleteOrphaned(): Promise<ConversationsDeleted> {
    return this.deleteEach((table) => deleteRowsOfRemovedRecords(this.manager, table));
  }

  /** The rows of an erased caller's records (the records stay, masked). */
  eraseRecords(cdrIds: readonly string[]): Promise<ConversationsDeleted> {
    return this.deleteEach((table) => deleteRowsOfRecords(this.manager, table, cdrIds));
  }

  private async deleteEach(
    remove: (table: (typeof TABLES)[number]) => Promise<number>,
  ): Promise<ConversationsDeleted> {
    const deleted = { recordings: 0, transcripts: 0 };
    for (const table of TABLES) {
      const count = await remove(table);
      if (table === 'call_recordings') deleted.recordings = count;
      if (table === 'transcripts') deleted.transcripts = count;
    }
    return deleted;
  }
}
