import { ValidationError } from '@trackline/domain';
import { callbackTrackingNumber, TwilioParams } from './twilio-params';

const params = (fields: Record<string, string>) => new TwilioParams(new Map(Object.entries(fields)));

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error('was accepted');
}

describe('TwilioParams', () => {
  it('reads each parameter as the typed value its callback needs', () => {
    const form = params({
      CallSid: 'CA0123',
      CallStatus: 'no-answer',
      To: '004722334455',
      From: '+4791234567',
      CallDuration: '42',
      RecordingStatus: 'completed',
      Digits: '123456',
    });
    expect(form.callSid()).toBe('CA0123');
    expect(form.callStatus()).toBe('no-answer');
    expect(form.to()).toBe('+4722334455');
    expect(form.dialled()).toBe('004722334455');
    expect(form.from()).toBe('+4791234567');
    expect(form.callDuration()).toBe(42);
    expect(form.recordingStatus()).toBe('completed');
    expect(form.digits()).toBe('123456');
  });

  it('answers what is left out with its default', () => {
    const form = params({});
    expect(form.from()).toBe('');
    expect(form.callDuration()).toBeNull();
    expect(params({ RecordingDuration: '' }).recordingDuration()).toBeNull();
    expect(form.recordingSid()).toBe('');
    expect(form.recordingUrl()).toBe('');
    expect(form.digits()).toBe('');
    expect(form.loggedCallSid()).toBeUndefined();
  });

  it('keeps as much of the caller as the call row holds', () => {
    expect(params({ From: 'x'.repeat(80) }).from()).toHaveLength(64);
  });

  it.each([
    [() => params({}).callSid(), 'CallSid: is required'],
    [() => params({ CallSid: '' }).callSid(), 'CallSid: is required'],
    [
      () => params({ CallSid: 'CA 1' }).callSid(),
      'CallSid: must be 1 to 128 printable characters without spaces',
    ],
    [() => params({ CallStatus: 'Completed' }).callStatus(), 'CallStatus: must be a call status'],
    [
      () => params({ RecordingStatus: 'done!' }).recordingStatus(),
      'RecordingStatus: must be a recording status',
    ],
    [() => params({ To: 'client:alice' }).to(), 'To: must be a phone number'],
    [() => params({ CallDuration: '-1' }).callDuration(), 'CallDuration: must be whole seconds'],
    [
      () => callbackTrackingNumber(undefined),
      'to: the callback URL must name the tracking number (?to=+E.164)',
    ],
  ])('refuses a broken parameter (%#)', (read, message) => {
    expect(refusal(read)).toBe(message);
  });

  it('reads the callback URL tracking number as E.164', () => {
    expect(callbackTrackingNumber('+4722334455')).toBe('+4722334455');
  });
});
