import {
  classifyCall,
  redactSegments,
  type CallClass,
  type OutcomeStatus,
  type RedactionSwitches,
} from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { UnitOfWork } from '../db/unit-of-work';
import type { OutcomeWriteStores } from '../outcomes/outcomes.service';
import type { AutoOutcome } from '../partners/call-intelligence-settings';
import { SpeechEngineError, transcribe, type HeardSpeech, type SpeechEngineSettings } from './speech-engine';
import type { TranscriptionContext } from './transcription-context.reader';
import type { ClaimedTranscriptionJob, RecordingKind, TranscriptionQueue } from './transcription-jobs.store';
import type {
  DoneTranscript,
  TranscriptRecord,
  TranscriptSegment,
  TypeormTranscriptsStore,
} from './transcripts.store';
import { engineWavChannels } from './wav-channels';

/** A recording's audio, wherever it is kept; the feature that keeps it fills this port in composition. */
export interface RecordingAudio {
  /**
   * The audio of the call's recording of that kind, fetched from the provider first when only its
   * reference is kept; null when the record has none. Throws when it cannot be fetched (retried).
   */
  audioOf(job: { cdrId: string; cdrStart: Date; recording: RecordingKind }): Promise<{
    audio: Buffer;
    contentType: string;
  } | null>;
}

/** What one transcript's transaction writes: the transcript, its events, the automatic outcome, the job's end. */
export interface TranscriptWriteStores extends OutcomeWriteStores {
  transcripts: Pick<TypeormTranscriptsStore, 'markPending' | 'saveDone' | 'saveFailed'>;
  jobs: Pick<TranscriptionQueue, 'complete' | 'fail'>;
}

/** What the worker counts (docs/operations.md, Metrics). */
export interface TranscriptionCounters {
  transcribed(audioSeconds: number, engineMs: number, ownCpuMs: number): void;
  failed(reason: 'engine' | 'recording' | 'empty', final: boolean): void;
}

export interface TranscriptionWorkerOptions {
  worker: string;
  /** Null: STT_BASE_URL unset; recordings are still fetched, nothing is sent anywhere. */
  engine: SpeechEngineSettings | null;
  concurrency: number;
  leaseMs: number;
  maxAttempts: number;
  baseDelayMs: number;
}

const MAX_DELAY_MS = 3_600_000;
/** An automatic outcome says where it came from, so a reader tells it from the partner's own. */
export const AUTO_OUTCOME_NOTE = 'set from the call classification';

/**
 * Works the transcription queue (docs/call-intelligence.md, The queue): fetches the recording when
 * only its reference is kept, sends it to the speech engine (each channel of a dual recording
 * apart), redacts, classifies, and stores the transcript with its events and the automatic outcome
 * in one transaction. A failure fails that call alone: retried with backoff, dead after the schedule
 * with its reason on the transcript. At most `concurrency` engine requests at once in this process.
 */
export class TranscriptionWorker {
  constructor(
    private readonly deps: {
      queue: Pick<TranscriptionQueue, 'claim' | 'fail' | 'complete'>;
      contexts: { find(cdrId: string, cdrStart: Date): Promise<TranscriptionContext | null> };
      audio: RecordingAudio;
      writes: UnitOfWork<TranscriptWriteStores>;
      counters: TranscriptionCounters;
      log: Logger;
    },
    private readonly options: TranscriptionWorkerOptions,
  ) {}

  /** One round: claims up to `concurrency` jobs and works them at once; answers how many it claimed. */
  async round(now: Date): Promise<number> {
    const { worker, leaseMs, concurrency } = this.options;
    const jobs = await this.deps.queue.claim(worker, now, new Date(now.getTime() + leaseMs), concurrency);
    await Promise.all(jobs.map((job) => this.work(job)));
    return jobs.length;
  }

  private async work(job: ClaimedTranscriptionJob): Promise<void> {
    const { worker, engine } = this.options;
    const context = await this.deps.contexts.find(job.cdrId, job.cdrStart);
    // The record is gone (retention, erasure): nothing to do, nothing to keep.
    if (context === null) return void (await this.deps.queue.complete(job.id, worker, new Date()));
    const wanted = engine !== null && context.settings.transcription;
    // A conversation's recording is fetched whether or not it is transcribed: the partner downloads it.
    if (!wanted && job.recording === 'voicemail')
      return void (await this.deps.queue.complete(job.id, worker, new Date()));
    let recording: { audio: Buffer; contentType: string } | null;
    try {
      recording = await this.deps.audio.audioOf(job);
    } catch (error) {
      const message = `recording could not be fetched: ${(error as Error).message}`;
      return this.failed(job, context, {
        reason: 'recording',
        message,
        retryable: true,
        transcribing: wanted,
      });
    }
    if (!wanted || recording === null)
      return void (await this.deps.queue.complete(job.id, worker, new Date()));
    await this.deps.writes.run(({ transcripts }) => transcripts.markPending(context));
    const engineStarted = performance.now();
    let heard: HeardSpeech;
    try {
      heard = await transcribeCall(engine, recording);
    } catch (error) {
      if (!(error instanceof SpeechEngineError)) throw error;
      const empty = !error.retry && /no speech/.test(error.message);
      const message = `speech engine ${error.message}`;
      return this.failed(job, context, {
        reason: empty ? 'empty' : 'engine',
        message,
        retryable: error.retry,
        transcribing: true,
      });
    }
    const engineMs = performance.now() - engineStarted;
    // Synchronous: its wall time is our CPU (docs/benchmarks.md, Call intelligence).
    const ownStarted = performance.now();
    const done = transcriptOf(heard, engine.model, context);
    const ownMs = performance.now() - ownStarted;
    await this.classified(job, context, done);
    this.deps.counters.transcribed(heard.durationSeconds, engineMs, ownMs);
    // What happened, never what was said: the text stays in its table.
    this.deps.log.info(
      {
        cdrId: job.cdrId,
        classification: done.classification,
        audioSeconds: heard.durationSeconds,
        engineMs: Math.round(engineMs),
      },
      'call transcribed',
    );
  }

  /** The transcript, its two events and the automatic outcome, with the job's end, in one transaction. */
  private async classified(
    job: ClaimedTranscriptionJob,
    context: TranscriptionContext,
    done: DoneTranscript,
  ): Promise<void> {
    const { worker } = this.options;
    await this.deps.writes.run(async ({ transcripts, webhooks, records, conversions, jobs }) => {
      await transcripts.saveDone(context, done);
      const record = { cdrId: context.cdrId, cdrStart: context.cdrStart };
      await webhooks.enqueue(context.partnerId, [
        { type: 'call.transcribed', ...record },
        { type: 'call.classified', ...record },
      ]);
      const status = automaticOutcome(context.settings.autoOutcome, done.classification);
      if (status !== null && !context.hasOutcome) {
        // Locked and read again: the partner's own outcome, posted meanwhile, always wins.
        const cdr = await records.lockRecord(context.partnerId, { cdrId: context.cdrId });
        if (cdr !== null && cdr.outcome === null) {
          const updated = await records.setOutcome(cdr, {
            status,
            value: null,
            currency: null,
            note: AUTO_OUTCOME_NOTE,
            at: new Date(),
          });
          await webhooks.enqueue(context.partnerId, [{ type: 'call.outcome', ...record }]);
          await conversions.enqueueOutcome(updated);
        }
      }
      // The lease was taken over (this worker was too slow): everything above rolls back.
      if (!(await jobs.complete(job.id, worker, new Date())))
        throw new Error(`transcription job ${job.id}: lease lost`);
    });
  }

  /** `transcribing`: the transcript shows the failure (a recording fetched for download alone has none). */
  private async failed(
    job: ClaimedTranscriptionJob,
    record: TranscriptRecord,
    failure: {
      reason: 'engine' | 'recording' | 'empty';
      message: string;
      retryable: boolean;
      transcribing: boolean;
    },
  ): Promise<void> {
    const { reason, message, retryable } = failure;
    const { worker, maxAttempts, baseDelayMs } = this.options;
    const final = !retryable || job.attempts >= maxAttempts;
    const retryAt = final
      ? null
      : new Date(Date.now() + Math.min(MAX_DELAY_MS, baseDelayMs * 2 ** (job.attempts - 1)));
    this.deps.counters.failed(reason, final);
    this.deps.log.warn(
      { cdrId: job.cdrId, attempts: job.attempts, final, reason: message },
      final ? 'transcription failed for good' : 'transcription failed, will retry',
    );
    await this.deps.writes.run(async ({ transcripts, jobs }) => {
      if (final && failure.transcribing) await transcripts.saveFailed(record, message);
      await jobs.fail(job.id, worker, message, retryAt);
    });
  }
}

/** Classifications that set an outcome, by the partner's `auto_outcome`. */
export function automaticOutcome(policy: AutoOutcome, classification: CallClass): OutcomeStatus | null {
  if (policy === 'off') return null;
  if (classification === 'lead') return 'lead';
  if (policy === 'lead') return null;
  return ['not_a_lead', 'existing_customer', 'wrong_number', 'spam'].includes(classification)
    ? 'not_a_lead'
    : null;
}

/**
 * A WAV recording goes to the engine at 16 kHz, channel by channel (caller, the provider's first
 * channel, and answerer apart) merged in time; anything else (MP3) whole.
 */
async function transcribeCall(
  engine: SpeechEngineSettings,
  recording: { audio: Buffer; contentType: string },
): Promise<HeardSpeech & { segments: TranscriptSegment[] }> {
  const channels = engineWavChannels(recording.audio);
  if (channels === undefined)
    return transcribe(engine, {
      audio: recording.audio,
      contentType: recording.contentType,
      fileName: fileNameOf(recording.contentType),
    });
  const send = (audio: Buffer) =>
    transcribe(engine, { audio, contentType: 'audio/wav', fileName: 'call.wav' });
  if (channels.length === 1) return send(channels[0]!);
  const [caller, answerer] = await Promise.all(channels.map((audio) => send(audio).catch(emptyChannel)));
  const segments: TranscriptSegment[] = [
    ...caller!.segments.map((segment) => ({ ...segment, channel: 'caller' as const })),
    ...answerer!.segments.map((segment) => ({ ...segment, channel: 'answerer' as const })),
  ].sort((a, b) => a.start - b.start);
  if (segments.length === 0) throw new SpeechEngineError('heard no speech (an empty transcript)', false);
  return {
    language: caller!.language ?? answerer!.language,
    durationSeconds: Math.max(caller!.durationSeconds, answerer!.durationSeconds),
    segments,
  };
}

/** One silent side of a conversation (the answerer who only listened) is no failure of the call. */
function emptyChannel(error: unknown): HeardSpeech {
  if (error instanceof SpeechEngineError && !error.retry)
    return { language: null, durationSeconds: 0, segments: [] };
  throw error;
}

/** What is stored of what the engine heard: redacted, classified (our own CPU per call: docs/benchmarks.md, Call intelligence). */
export function transcriptOf(
  heard: HeardSpeech,
  model: string,
  context: Pick<TranscriptionContext, 'settings' | 'rules' | 'signals'>,
): DoneTranscript {
  const switches: RedactionSwitches = {
    cards: context.settings.redactCards,
    emails: context.settings.redactEmails,
    phones: context.settings.redactPhones,
  };
  // Redacted before anything else reads it: classification, storage, events see only this.
  const segments = redactSegments(heard.segments as TranscriptSegment[], switches, heard.language).filter(
    (segment) => segment.text !== '',
  );
  const classified = classifyCall(segments, context.rules, context.signals);
  return {
    language: heard.language,
    durationSeconds: heard.durationSeconds,
    model,
    text: segments.map((segment) => segment.text).join(' '),
    segments,
    classification: classified.classification,
    reasons: classified.reasons,
    keywords: classified.keywordsSpotted,
  };
}

function fileNameOf(contentType: string): string {
  return contentType.includes('mpeg') ? 'call.mp3' : 'call.wav';
}
