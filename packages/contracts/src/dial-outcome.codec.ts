import { fail, parseJsonObject, readBoolean, readInteger, readString } from './projection-error';

/**
 * How the dialled leg of a provider call ended (`DialCallStatus`, `DialCallDuration` of the
 * `<Dial action>` request), written by replacement beside the call's attribution and read by
 * management when it assembles the call record (docs/telephony.md). Same lifetime as the attribution.
 */
export interface DialOutcome {
  callId: string;
  /** completed, answered, busy, no-answer, failed or canceled. */
  status: string;
  /** Talk time of the dialled leg, whole seconds (0 when it did not answer). */
  durationSeconds: number;
  /** The call went on to voicemail (busy / no-answer diversion). */
  voicemail: boolean;
  /** ISO 8601 instant the outcome arrived. */
  at: string;
}

const WHAT = 'dial outcome';

/** The dialled leg answered: Twilio reports `completed` (or `answered` while bridged). */
export function dialAnswered(status: string): boolean {
  return status === 'completed' || status === 'answered';
}

export function encodeDialOutcome(outcome: DialOutcome): string {
  return JSON.stringify({
    call_id: outcome.callId,
    status: outcome.status,
    duration: outcome.durationSeconds,
    voicemail: outcome.voicemail,
    at: outcome.at,
  });
}

export function decodeDialOutcome(raw: string): DialOutcome {
  const record = parseJsonObject(WHAT, raw);
  const durationSeconds = readInteger(WHAT, record, 'duration');
  if (durationSeconds < 0) fail(WHAT, 'duration must not be negative');
  return {
    callId: readString(WHAT, record, 'call_id'),
    status: readString(WHAT, record, 'status'),
    durationSeconds,
    voicemail: readBoolean(WHAT, record, 'voicemail'),
    at: readString(WHAT, record, 'at'),
  };
}
