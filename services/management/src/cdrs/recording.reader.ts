import type { EntityManager } from 'typeorm';

/**
 * Reads cdrs.recording, for the voicemail audio a new-voicemail e-mail attaches (the notifications'
 * RecordingReader); the outbox row holds only the CDR id, never a copy of the audio.
 */
export class SqlRecordingReader {
  constructor(private readonly manager: EntityManager) {}

  async read(cdrId: string): Promise<Buffer | null> {
    const rows: Array<{ recording: Buffer | null }> = await this.manager.query(
      'SELECT recording FROM cdrs WHERE id = $1',
      [cdrId],
    );
    return rows[0]?.recording ?? null;
  }
}
