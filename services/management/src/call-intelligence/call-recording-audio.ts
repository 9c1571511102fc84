import { audioContentType } from '@trackline/domain';
import type { RecordingKind } from './transcription-jobs.store';
import type { StoredCallRecording } from './call-recordings.store';

/** Downloads a provider recording within the size cap and the host rules (telephony's fetcher, in composition). */
export interface ProviderRecordingDownloads {
  fetch(recordingUrl: string): Promise<Buffer>;
}

/** The voicemail on a call record (`cdrs.recording`, cdrs/recording.reader.ts in composition). */
export interface VoicemailRecordings {
  read(cdrId: string): Promise<Buffer | null>;
}

export interface CallRecordingAudioDependencies {
  recordings: {
    reference(cdrId: string): Promise<StoredCallRecording | null>;
    saveAudio(cdrId: string, audio: Buffer, contentType: string, now: Date): Promise<boolean>;
  };
  voicemails: VoicemailRecordings;
  downloads: ProviderRecordingDownloads;
  clock: () => Date;
}

/**
 * A call's recording audio for the transcription worker (docs/telephony.md, Recording answered
 * calls): a voicemail from its record; an answered call's from call_recordings, fetched from the
 * provider and kept on first use, so the partner's download and every later job read it locally.
 * A failed download throws: the job is retried by the queue.
 */
export class CallRecordingAudio {
  constructor(private readonly deps: CallRecordingAudioDependencies) {}

  async audioOf(job: {
    cdrId: string;
    recording: RecordingKind;
  }): Promise<{ audio: Buffer; contentType: string } | null> {
    if (job.recording === 'voicemail') {
      const audio = await this.deps.voicemails.read(job.cdrId);
      return audio === null ? null : { audio, contentType: audioContentType(audio) };
    }
    const stored = await this.deps.recordings.reference(job.cdrId);
    if (stored === null) return null;
    if (stored.audio !== null)
      return { audio: stored.audio, contentType: stored.contentType ?? audioContentType(stored.audio) };
    const audio = await this.deps.downloads.fetch(stored.providerUrl);
    const contentType = audioContentType(audio);
    await this.deps.recordings.saveAudio(job.cdrId, audio, contentType, this.deps.clock());
    return { audio, contentType };
  }
}
