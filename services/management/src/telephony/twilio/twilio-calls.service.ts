import { ServiceUnavailableError, ValidationError } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { ConversationRecordingReference } from '../../call-intelligence/call-recordings.store';
import type { CdrIngestion } from '../../cdrs/cdr-ingestion.service';
import type { CdrInput } from '../../cdrs/cdr-input';
import type { CallContextReader } from './call-context.reader';
import { RecordingUnavailableError, type RecordingFetcher } from './recording-fetcher';
import { callRecord } from './twilio-call-record';
import type {
  ConversationCallback,
  RecordingCallback,
  StatusCallback,
  StoredRecord,
  TwilioCallState,
  TwilioCallsStore,
} from './twilio-calls.store';

/** CallStatus values that end a call; earlier ones (queued, ringing, in-progress) are not kept. */
export const FINAL_CALL_STATUSES = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

const COMPLETED_KEPT_MS = 24 * 3_600_000;

export interface TwilioCallsOptions {
  /** TWILIO_CALLBACK_GRACE_SECONDS: how long a call waits for a missing callback before it is completed. */
  graceMs: number;
}

/** Keeps an answered call's recording reference with its transcription job (call-intelligence's store). */
export interface ConversationRecordings {
  /** One transaction; a repeat changes nothing. */
  keep(reference: ConversationRecordingReference): Promise<boolean>;
}

export type CompletionResult =
  { done: true; cdrId: string | null; outcome: string } | { done: false; waitingFor: string };

/**
 * Assembles the call record of a provider call from its callbacks (docs/telephony.md): the status
 * callback (CallStatus, CallDuration), the dial outcome replacement kept, and the recording
 * callback. The record is stored through the one ingestion path, idempotent on CallSid, once
 * the call has ended and, when it went to voicemail, its recording arrived — or once the grace
 * period after the last callback has passed, from what arrived.
 */
export class TwilioCallsService {
  constructor(
    private readonly store: TwilioCallsStore,
    private readonly contexts: CallContextReader,
    private readonly recordings: Pick<RecordingFetcher, 'fetch'>,
    private readonly ingestion: CdrIngestion,
    private readonly conversations: ConversationRecordings,
    private readonly options: TwilioCallsOptions,
    private readonly log: Logger,
  ) {}

  async statusCallback(callSid: string, status: StatusCallback, now: Date): Promise<CompletionResult> {
    const state = await this.store.saveStatus(callSid, status, now);
    return this.tryComplete(state, now, false);
  }

  async recordingCallback(
    callSid: string,
    recording: RecordingCallback,
    now: Date,
  ): Promise<CompletionResult> {
    const state = await this.store.saveRecording(callSid, recording, now);
    return this.tryComplete(state, now, false);
  }

  /**
   * An answered call's recording (docs/telephony.md, Recording answered calls): kept on the call's
   * state, and with its record once that is stored — now, when it already is, or when the call
   * completes later. The audio is not fetched here: the transcription queue's worker fetches it.
   */
  async conversationCallback(
    callSid: string,
    to: string | null,
    conversation: ConversationCallback,
    now: Date,
  ): Promise<CompletionResult> {
    const state = await this.store.saveConversation(callSid, to, conversation, now);
    if (state.completedAt === null) return this.tryComplete(state, now, false);
    const record = storedRecordOf(state);
    if (record === null) return { done: true, cdrId: null, outcome: 'no call record: recording not kept' };
    await this.keepConversation(state, record);
    return { done: true, cdrId: record.id, outcome: 'recording kept' };
  }

  /**
   * Completes every call whose callbacks stopped more than the grace period ago; returns how many.
   * Rows of calls completed a day ago are dropped: a callback that late finds no row, starts a new
   * one, and completes as "already stored" (ingestion is idempotent on CallSid).
   */
  async sweep(now: Date, limit = 100): Promise<number> {
    await this.store.purgeCompleted(new Date(now.getTime() - COMPLETED_KEPT_MS));
    const due = await this.store.stale(new Date(now.getTime() - this.options.graceMs), limit);
    let completed = 0;
    for (const callSid of due) {
      const state = await this.store.find(callSid);
      if (state === null || state.completedAt !== null) continue;
      const result = await this.tryComplete(state, now, true);
      if (result.done) {
        completed++;
        this.log.warn(
          {
            callSid,
            outcome: result.outcome,
            callStatus: state.callStatus,
            recording: state.recordingStatus,
          },
          'provider call completed after the grace period from the callbacks that arrived',
        );
      }
    }
    return completed;
  }

  private async tryComplete(state: TwilioCallState, now: Date, force: boolean): Promise<CompletionResult> {
    if (state.completedAt !== null) return { done: true, cdrId: state.cdrId, outcome: 'already stored' };
    if (state.to === null) {
      if (!force) return { done: false, waitingFor: 'status callback' };
      return this.finish(state, null, 'no tracking number ever arrived: no call record', now);
    }
    const context = await this.contexts.find(state.to, state.callSid);
    if (context === null) return this.finish(state, null, `not a tracking number: ${state.to}`, now);

    const ended = state.callStatus !== null;
    const expectsRecording = context.attribution?.action === 'voicemail' || context.dial?.voicemail === true;
    const recordingSettled = state.recordingStatus !== null;
    if (!force && !ended) return { done: false, waitingFor: 'status callback' };
    // A dialled call's record is decided by its dial result (answered, talk time), which reaches
    // replacement, not us: until it is kept there the record waits — the next callback or the sweep
    // after the grace period completes it — so the order callbacks arrive in never changes it.
    const dialled = context.attribution?.action === 'dial';
    if (!force && dialled && context.dial === null) return { done: false, waitingFor: 'dial result' };
    if (!force && expectsRecording && !recordingSettled) return { done: false, waitingFor: 'recording' };

    let recording: Buffer | null = null;
    if (state.recordingUrl !== null && state.recordingStatus === 'completed') {
      try {
        recording = await this.recordings.fetch(state.recordingUrl);
      } catch (error) {
        if (error instanceof RecordingUnavailableError && !force) {
          // Tried again on the next callback or by the sweep; after the grace period, stored without it.
          this.log.warn({ callSid: state.callSid, reason: error.message }, 'recording not fetched yet');
          return { done: false, waitingFor: 'recording download' };
        }
        this.log.error(
          { callSid: state.callSid, err: error },
          'recording not fetched: call record stored without it',
        );
      }
    }
    let record: CdrInput;
    try {
      record = callRecord(state, context, recording);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return this.refused(state, error.message, now);
    }
    const [outcome] = await this.ingestion.ingest([record], now);
    if (outcome === undefined) throw new Error('ingestion answered nothing');
    if (outcome.ok) {
      const stored = { id: outcome.cdr.id, partnerId: outcome.cdr.partnerId, start: outcome.cdr.start };
      // Before the completion is marked: should keeping fail, the next callback or the sweep
      // completes the call again (ingestion is idempotent) and keeps it then.
      await this.keepConversation(state, stored);
      return this.finish(state, stored, outcome.created ? 'stored' : 'already stored', now);
    }
    // A store outage is 503 to the provider like on every route (docs/telephony.md): it retries.
    if (outcome.status === 503)
      throw new ServiceUnavailableError('Service temporarily unavailable; retry later', {
        cause: outcome.cause,
      });
    if (outcome.status >= 500) throw new Error(`call record not stored: ${outcome.message}`);
    return this.refused(state, outcome.message, now);
  }

  /** Refused for good (a rule of the record): retrying cannot help; the reason is kept and logged. */
  private async refused(state: TwilioCallState, reason: string, now: Date): Promise<CompletionResult> {
    this.log.error({ callSid: state.callSid, reason }, 'provider call record refused');
    return this.finish(state, null, `refused: ${reason}`, now);
  }

  private async keepConversation(state: TwilioCallState, record: StoredRecord): Promise<void> {
    const { conversation } = state;
    if (conversation === null) return;
    const kept = await this.conversations.keep({
      cdrId: record.id,
      partnerId: record.partnerId,
      cdrStart: record.start,
      providerSid: conversation.recordingSid,
      providerUrl: conversation.recordingUrl,
      channels: conversation.channels,
      durationSeconds: conversation.durationSeconds,
    });
    if (kept) this.log.info({ callSid: state.callSid, cdrId: record.id }, 'call recording kept and queued');
  }

  private async finish(
    state: TwilioCallState,
    record: StoredRecord | null,
    outcome: string,
    now: Date,
  ): Promise<CompletionResult> {
    await this.store.complete(state.callSid, record, outcome, now);
    if (record === null)
      this.log.warn({ callSid: state.callSid, outcome }, 'provider call closed without a record');
    return { done: true, cdrId: record?.id ?? null, outcome };
  }
}

function storedRecordOf(state: TwilioCallState): StoredRecord | null {
  return state.cdrId === null || state.partnerId === null || state.cdrStart === null
    ? null
    : { id: state.cdrId, partnerId: state.partnerId, start: state.cdrStart };
}
