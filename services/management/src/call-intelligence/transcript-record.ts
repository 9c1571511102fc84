import { formatUtcTimestamp, type ClassificationReason } from '@trackline/domain';
import type { ApiRecord, ApiValue, ResourceNames } from '../http/api-response';
import type { Transcript, TranscriptSegment } from './transcripts.store';

export const TRANSCRIPT_NAMES: ResourceNames = { plural: 'transcripts', singular: 'transcript' };

/** The call a transcript belongs to, as its record names it. */
export interface TranscribedCall {
  id: string;
  callId: string;
}

/**
 * One call's transcript as GET /cdrs/<cdr_id>/transcript answers it (docs/call-intelligence.md,
 * API). Status `none` when the call has none; the lists are null until it is done. Every value a
 * string or null; segments and reasons are lists of records with the same keys each, so XML
 * renders them as repeated elements (`<segments><segment>…</segment></segments>`).
 */
export function toTranscriptRecord(call: TranscribedCall, transcript: Transcript | null): ApiRecord {
  const done = transcript?.status === 'done';
  return {
    cdr_id: call.id,
    call_id: call.callId,
    status: transcript?.status ?? 'none',
    language: transcript?.language ?? null,
    duration: transcript?.durationSeconds ?? null,
    model: transcript?.model ?? null,
    text: transcript?.text ?? null,
    segments: done ? transcript.segments.map(segmentRecord) : null,
    classification: transcript?.classification ?? null,
    classification_reasons: done ? transcript.reasons.map(reasonRecord) : null,
    keywords_spotted: done ? [...transcript.keywords] : null,
    error: transcript?.error ?? null,
    modified: transcript === null ? null : formatUtcTimestamp(transcript.modified),
  };
}

function segmentRecord(segment: TranscriptSegment): ApiValue {
  return {
    start: seconds(segment.start),
    end: seconds(segment.end),
    text: segment.text,
    channel: segment.channel ?? null,
  };
}

/** A phrase's reason names the phrase and where it was said; a signal's, the signal. */
function reasonRecord(reason: ClassificationReason): ApiValue {
  if (reason.rule === 'signal')
    return {
      rule: 'signal',
      phrase: null,
      matched: null,
      at: null,
      channel: null,
      signal: reason.signal,
      detail: reason.detail,
    };
  return {
    rule: reason.rule,
    phrase: reason.phrase,
    matched: reason.matched,
    at: seconds(reason.at),
    channel: reason.channel ?? null,
    signal: null,
    detail: null,
  };
}

/** Seconds from the start of the recording, to the hundredth as `duration` is. */
function seconds(value: number): string {
  return value.toFixed(2);
}
