import { NotFoundError } from '@trackline/domain';
import type { CdrReference } from '../cdrs/cdr-outcomes.store';
import type { VoicemailRecordings } from './call-recording-audio';

/** The partner's record by id or call id (the cdrs feature's lookup, in composition). */
export interface RecordingRecords {
  findRecord(
    partnerId: string,
    reference: CdrReference,
  ): Promise<{ id: string; hasRecording: boolean } | null>;
}

export interface OwnConversationRecordings {
  ownAudio(
    partnerId: string,
    cdrId: string,
  ): Promise<{ audio: Buffer | null; contentType: string | null } | null>;
}

/**
 * A call's recording for its partner (docs/telephony.md, Recording answered calls): the answered
 * call's once fetched from the provider, else the voicemail on the record. Another partner's
 * record is as unknown as a missing one.
 */
export class CallRecordingDownloadsService {
  constructor(
    private readonly records: RecordingRecords,
    private readonly conversations: OwnConversationRecordings,
    private readonly voicemails: VoicemailRecordings,
  ) {}

  async audio(partnerId: string, reference: CdrReference): Promise<Buffer> {
    const record = await this.records.findRecord(partnerId, reference);
    const name =
      'cdrId' in reference ? `call record ${reference.cdrId}` : `call with call_id ${reference.callId}`;
    if (record === null) throw new NotFoundError(name);
    const conversation = await this.conversations.ownAudio(partnerId, record.id);
    if (conversation !== null) {
      // The worker fetches it from the provider shortly after the call; the partner may retry.
      if (conversation.audio === null)
        throw new NotFoundError(
          `downloaded recording of ${name} (the provider's is not fetched yet; retry later)`,
        );
      return conversation.audio;
    }
    const voicemail = record.hasRecording ? await this.voicemails.read(record.id) : null;
    if (voicemail === null) throw new NotFoundError(`recording of ${name} (the call was not recorded)`);
    return voicemail;
  }
}
