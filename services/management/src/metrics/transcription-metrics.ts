import { Counter, Gauge, type Logger, type Registry } from '@trackline/platform';
import type { TranscriptionCounters } from '../call-intelligence/transcription-worker';
import type { TranscriptionQueueState } from '../call-intelligence/transcription-jobs.store';

const RESULTS = ['transcribed', 'retried', 'dead'] as const;
const REASONS = ['engine', 'recording', 'empty'] as const;

/**
 * The transcription queue and worker (docs/operations.md, Metrics): the queue's depth and its
 * oldest job read at scrape time, and what the worker did — calls, failures by reason, seconds of
 * audio, the engine's time and our own.
 */
export class TranscriptionMetrics implements TranscriptionCounters {
  private readonly results: Counter<'result' | 'reason'>;
  private readonly audioSeconds: Counter;
  private readonly engineSeconds: Counter;
  private readonly ownSeconds: Counter;

  constructor(
    registry: Registry,
    private readonly deps: {
      queue: { state(now: Date): Promise<TranscriptionQueueState> };
      clock: () => Date;
      logger: Logger;
      onCollectionError: () => void;
    },
  ) {
    this.results = new Counter({
      name: 'trackline_transcriptions_total',
      help: 'Transcription attempts by result (transcribed, retried, dead) and, for failures, reason (engine, recording, empty).',
      labelNames: ['result', 'reason'],
      registers: [registry],
    });
    this.results.inc({ result: 'transcribed', reason: '' }, 0);
    for (const result of RESULTS.slice(1))
      for (const reason of REASONS) this.results.inc({ result, reason }, 0);
    this.audioSeconds = new Counter({
      name: 'trackline_transcribed_audio_seconds_total',
      help: 'Seconds of audio transcribed; its rate is the seconds of audio per second the engine keeps up with.',
      registers: [registry],
    });
    this.engineSeconds = new Counter({
      name: 'trackline_transcription_engine_seconds_total',
      help: "Seconds spent waiting for the speech engine's answers.",
      registers: [registry],
    });
    this.ownSeconds = new Counter({
      name: 'trackline_transcription_own_cpu_seconds_total',
      help: 'CPU seconds of our own per transcribed call: redaction, classification, building the transcript.',
      registers: [registry],
    });
    let state: Promise<TranscriptionQueueState | null> | undefined;
    const read = () =>
      (state ??= this.deps.queue
        .state(this.deps.clock())
        .catch((error: unknown) => {
          this.deps.onCollectionError();
          this.deps.logger.warn({ err: error }, 'transcription metrics not collected');
          return null;
        })
        .finally(() => setImmediate(() => (state = undefined))));
    const depth: Gauge<'status'> = new Gauge({
      name: 'trackline_transcription_jobs',
      help: 'Transcription jobs waiting (pending, including those being worked) and dead.',
      labelNames: ['status'],
      registers: [registry],
      collect: async () => {
        const now = await read();
        depth.reset();
        if (now === null) return;
        depth.set({ status: 'pending' }, now.pending);
        depth.set({ status: 'dead' }, now.dead);
      },
    });
    const oldest = new Gauge({
      name: 'trackline_transcription_oldest_pending_age_seconds',
      help: 'Age of the oldest transcription job still waiting; 0 when none waits.',
      registers: [registry],
      collect: async () => {
        const now = await read();
        if (now !== null) oldest.set(now.oldestPendingSeconds ?? 0);
      },
    });
  }

  transcribed(audioSeconds: number, engineMs: number, ownCpuMs: number): void {
    this.results.inc({ result: 'transcribed', reason: '' });
    this.audioSeconds.inc(audioSeconds);
    this.engineSeconds.inc(engineMs / 1000);
    this.ownSeconds.inc(ownCpuMs / 1000);
  }

  failed(reason: (typeof REASONS)[number], final: boolean): void {
    this.results.inc({ result: final ? 'dead' : 'retried', reason });
  }
}
