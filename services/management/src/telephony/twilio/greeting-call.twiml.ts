import { twimlDocument } from '@trackline/domain';

/** The greeting dial-in's TwiML (docs/telephony.md); `base` is MANAGEMENT_PUBLIC_URL. */
export const GREETING_CALL_PATH = '/telephony/twilio/greeting-call';
export const PIN_TRIES = 3;

export function askForPin(base: string, attempt: number, retry: boolean): string {
  const prompt = retry
    ? 'That code was not recognised. Please enter your six digit code.'
    : 'Please enter the six digit code of your greeting.';
  return twimlDocument([
    {
      name: 'Gather',
      attributes: {
        input: 'dtmf',
        numDigits: 6,
        timeout: 10,
        action: `${base}${GREETING_CALL_PATH}?${new URLSearchParams({ step: 'pin', attempt: String(attempt) })}`,
        method: 'POST',
      },
      children: [{ name: 'Say', children: prompt }],
    },
    { name: 'Say', children: 'No code was entered. Goodbye.' },
    { name: 'Hangup' },
  ]);
}

export function recordGreeting(base: string, greetingId: string, maxSeconds: number): string {
  return twimlDocument([
    { name: 'Say', children: 'Record your greeting after the tone, then press the pound key.' },
    {
      name: 'Record',
      attributes: {
        action: `${base}${GREETING_CALL_PATH}?step=recorded`,
        method: 'POST',
        maxLength: maxSeconds,
        finishOnKey: '#',
        playBeep: 'true',
        recordingStatusCallback: `${base}/telephony/twilio/recording?${new URLSearchParams({ greeting: greetingId })}`,
        recordingStatusCallbackMethod: 'POST',
      },
    },
  ]);
}

export function goodbye(text: string): string {
  return twimlDocument([{ name: 'Say', children: text }, { name: 'Hangup' }]);
}
