import type { EntityManager } from 'typeorm';
import { CallRecordingEntity } from './call-recording.entity';
import { enqueueTranscriptionJobs } from './transcription-jobs.store';

/** An answered call's recording as the provider reported it, with the record it belongs to. */
export interface ConversationRecordingReference {
  cdrId: string;
  partnerId: string;
  /** The record's start: its monthly partition, and the queue job's. */
  cdrStart: Date;
  providerSid: string;
  /** Checked against RECORDING_HOSTS before it was kept. */
  providerUrl: string;
  channels: number;
  durationSeconds: number | null;
}

/** What the audio side needs of a kept recording. */
export interface StoredCallRecording {
  providerUrl: string;
  channels: number;
  durationSeconds: number | null;
  /** Null until the transcription worker fetched it from the provider. */
  audio: Buffer | null;
  contentType: string | null;
}

/**
 * Reads and writes "call_recordings" (docs/telephony.md, Recording answered calls): the reference
 * with its queued job, the audio once fetched, and the rows whose record is gone.
 */
export class TypeormCallRecordingsStore {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Keeps the reference and queues the call's job in one transaction (docs/call-intelligence.md,
   * The queue): the worker fetches the audio, so a failed download is retried by the queue. A
   * repeat (the provider repeats callbacks) changes nothing; false then.
   */
  keep(reference: ConversationRecordingReference): Promise<boolean> {
    return this.manager.transaction(async (manager) => {
      const inserted = (await manager.query(
        `INSERT INTO "call_recordings"
           ("cdr_id", "partner_id", "cdr_start", "provider_sid", "provider_url", "channels", "duration_seconds")
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT ("cdr_id") DO NOTHING
         RETURNING 1`,
        [
          reference.cdrId,
          reference.partnerId,
          reference.cdrStart,
          reference.providerSid,
          reference.providerUrl,
          reference.channels,
          reference.durationSeconds,
        ],
      )) as unknown[];
      await enqueueTranscriptionJobs(manager, [
        {
          partnerId: reference.partnerId,
          cdrId: reference.cdrId,
          cdrStart: reference.cdrStart,
          recording: 'conversation',
        },
      ]);
      return inserted.length > 0;
    });
  }

  async reference(cdrId: string): Promise<StoredCallRecording | null> {
    const row = await this.manager.getRepository(CallRecordingEntity).findOne({
      select: {
        cdrId: true,
        providerUrl: true,
        channels: true,
        durationSeconds: true,
        audio: true,
        contentType: true,
      },
      where: { cdrId },
    });
    return row === null
      ? null
      : {
          providerUrl: row.providerUrl,
          channels: row.channels,
          durationSeconds: row.durationSeconds,
          audio: row.audio,
          contentType: row.contentType,
        };
  }

  /** The partner's own recording only: a partner never reads another's by guessing an id. */
  async ownAudio(
    partnerId: string,
    cdrId: string,
  ): Promise<{ audio: Buffer | null; contentType: string | null } | null> {
    const row = await this.manager.getRepository(CallRecordingEntity).findOne({
      select: { cdrId: true, audio: true, contentType: true },
      where: { cdrId, partnerId },
    });
    return row === null ? null : { audio: row.audio, contentType: row.contentType };
  }

  /** False when the row is gone (the record was removed meanwhile). */
  async saveAudio(cdrId: string, audio: Buffer, contentType: string, now: Date): Promise<boolean> {
    const result = await this.manager
      .getRepository(CallRecordingEntity)
      .update({ cdrId }, { audio, contentType, fetchedAt: now });
    return (result.affected ?? 0) > 0;
  }
}
