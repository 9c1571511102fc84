import type { EntityManager } from 'typeorm';

/** The voicemail audio a new-voicemail e-mail attaches, read when the e-mail is built. */
export interface RecordingReader {
  /** Null when the CDR or its recording does not exist. */
  read(cdrId: string): Promise<Buffer | null>;
}

/** Reads cdrs.recording; the outbox row holds only the CDR id, never a copy of the audio. */
export class SqlRecordingReader implements RecordingReader {
  constructor(private readonly manager: EntityManager) {}

  async read(cdrId: string): Promise<Buffer | null> {
    const rows: Array<{ recording: Buffer | null }> = await this.manager.query(
      'SELECT recording FROM cdrs WHERE id = $1',
      [cdrId],
    );
    return rows[0]?.recording ?? null;
  }
}
