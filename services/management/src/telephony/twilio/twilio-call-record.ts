import { dialAnswered } from '@trackline/contracts';
import { parseCallTime } from '@trackline/domain';
import { callerOf, callIdOf, durationOf, trackingNumberOf, type CdrInput } from '../../cdrs/cdr-input';
import type { CallContext } from './call-context.reader';
import type { TwilioCallState } from './twilio-calls.store';

/**
 * The call's record, by the rules every producer's record meets (cdrs/cdr-input.ts): `start` the
 * instant of the voice webhook, `answered` when the dialled leg answered, `duration` its talk time
 * when answered, else the call's duration, `voicemail` with the downloaded recording. Throws a
 * ValidationError when a value breaks a rule of the record.
 */
export function callRecord(
  state: Pick<
    TwilioCallState,
    'callSid' | 'to' | 'from' | 'callDuration' | 'recordingDuration' | 'lastCallback'
  >,
  context: CallContext,
  recording: Buffer | null,
): CdrInput {
  const answered = context.dial !== null && dialAnswered(context.dial.status);
  const callDuration = state.callDuration ?? state.recordingDuration ?? 0;
  // Without the attribution (expired, or the call never reached replacement): the end less the duration.
  const start =
    context.attribution === null
      ? new Date(state.lastCallback.getTime() - callDuration * 1000)
      : parseCallTime('start', context.attribution.at);
  return {
    callId: callIdOf(state.callSid),
    anum: callerOf('anum', callerNumber(state.from ?? context.attribution?.anum ?? null)),
    bnum: trackingNumberOf(state.to),
    cnum: null,
    start,
    durationSeconds: durationOf(answered ? context.dial!.durationSeconds : callDuration),
    answered,
    voicemail: recording !== null,
    recording,
  };
}

/** The caller as a record can hold it: printable, no spaces, at most 32 characters; withheld → anonymous. */
function callerNumber(raw: string | null): string {
  const cleaned = (raw ?? '').replace(/[^\x21-\x7e]/g, '').slice(0, 32);
  return cleaned === '' ? 'anonymous' : cleaned;
}
