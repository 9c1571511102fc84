import type { CallAttribution, DialOutcome } from '@trackline/contracts';
import { ValidationError } from '@trackline/domain';
import type { CallContext } from './call-context.reader';
import { callRecord } from './twilio-call-record';

const ENDED = new Date('2026-03-02T09:05:00Z');
const STATE = {
  callSid: 'CA0123456789abcdef',
  to: '+4740000001',
  from: '+4791234567',
  callDuration: 90,
  recordingDuration: null,
  lastCallback: ENDED,
};

const ROUTED = {
  callId: STATE.callSid,
  advId: 'acme',
  anum: '+4798765432',
  bnum: STATE.to,
  at: '2026-03-02T09:00:00.000Z',
  action: 'dial',
  target: '+4722334455',
  sourceId: null,
  customerId: null,
  vmGreetingId: null,
  sessionId: null,
  trackingId: null,
  fullUrl: null,
  fullReferrer: null,
  custnr: null,
  parameters: null,
  quarantined: false,
  kind: 'none',
  boundAt: null,
} satisfies CallAttribution;

function dial(status: string, durationSeconds: number): DialOutcome {
  return { callId: STATE.callSid, status, durationSeconds, voicemail: false, at: '2026-03-02T09:04:00.000Z' };
}

function context(fields: Partial<CallContext>): CallContext {
  return { advId: 'acme', attribution: ROUTED, dial: null, ...fields };
}

describe('callRecord', () => {
  it('records an answered call with the talk time of the dialled leg, from the instant it was routed', () => {
    expect(callRecord(STATE, context({ dial: dial('completed', 65) }), null)).toEqual({
      callId: STATE.callSid,
      anum: '+4791234567',
      bnum: '+4740000001',
      cnum: null,
      start: new Date('2026-03-02T09:00:00.000Z'),
      durationSeconds: 65,
      answered: true,
      voicemail: false,
      recording: null,
    });
  });

  it("records an unanswered call with the call's own duration, and its voicemail with the recording", () => {
    const audio = Buffer.from('RIFF');
    expect(callRecord(STATE, context({ dial: dial('no-answer', 0) }), audio)).toMatchObject({
      durationSeconds: 90,
      answered: false,
      voicemail: true,
      recording: audio,
    });
  });

  it('dates a call replacement kept nothing of from its end, and reads a withheld caller', () => {
    const record = callRecord(
      { ...STATE, from: '', callDuration: null, recordingDuration: 30 },
      context({ attribution: null }),
      null,
    );
    expect(record).toMatchObject({
      start: new Date('2026-03-02T09:04:30Z'),
      durationSeconds: 30,
      anum: 'anonymous',
    });
  });

  it("takes the caller replacement saw when the status callback's is missing", () => {
    expect(callRecord({ ...STATE, from: null }, context({}), null).anum).toBe('+4798765432');
  });

  it('refuses a call id the record cannot hold', () => {
    expect(() => callRecord({ ...STATE, callSid: 'x'.repeat(129) }, context({}), null)).toThrow(
      ValidationError,
    );
  });
});
