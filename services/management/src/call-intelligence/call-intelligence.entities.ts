import { CallRecordingEntity } from './call-recording.entity';
import { TranscriptEntity } from './transcript.entity';
import { TranscriptionJobEntity } from './transcription-job.entity';

export const CALL_INTELLIGENCE_ENTITIES = [CallRecordingEntity, TranscriptionJobEntity, TranscriptEntity];
