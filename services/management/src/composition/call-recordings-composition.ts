import type { EntityManager } from 'typeorm';
import {
  CallRecordingAudio,
  type ProviderRecordingDownloads,
} from '../call-intelligence/call-recording-audio';
import { CallRecordingDownloadsService } from '../call-intelligence/call-recording-downloads.service';
import { callRecordingRoutes } from '../call-intelligence/call-recording.routes';
import { TypeormCallRecordingsStore } from '../call-intelligence/call-recordings.store';
import { TypeormCdrOutcomesStore } from '../cdrs/cdr-outcomes.store';
import { SqlRecordingReader } from '../cdrs/recording.reader';
import type { RouteDefinition } from '../http/route-definition';

/** Answered calls' recordings (docs/telephony.md, Recording answered calls) on one manager. */
export interface CallRecordingsFeature {
  /** Keeps references with their transcription jobs: the provider callbacks' port. */
  store: TypeormCallRecordingsStore;
  /** GET /cdrs/<id>/recording and /cdrs/recording?call_id=. */
  routes: RouteDefinition[];
}

export function composeCallRecordings(manager: EntityManager): CallRecordingsFeature {
  const store = new TypeormCallRecordingsStore(manager);
  const downloads = new CallRecordingDownloadsService(
    new TypeormCdrOutcomesStore(manager),
    store,
    new SqlRecordingReader(manager),
  );
  return { store, routes: callRecordingRoutes(downloads) };
}

/**
 * The audio the transcription worker reads (its `RecordingAudio` port): the voicemail on the
 * record, or the answered call's, downloaded by telephony's fetcher (`TwilioTelephony.conversationDownloads`).
 */
export function composeCallRecordingAudio(
  manager: EntityManager,
  downloads: ProviderRecordingDownloads,
  clock: () => Date,
): CallRecordingAudio {
  return new CallRecordingAudio({
    recordings: new TypeormCallRecordingsStore(manager),
    voicemails: new SqlRecordingReader(manager),
    downloads,
    clock,
  });
}
