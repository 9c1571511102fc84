import { twimlDocument } from '@trackline/domain';
import type { DialInTurn } from './greeting-dial-in';

/** The greeting dial-in's TwiML (docs/telephony.md); `base` is MANAGEMENT_PUBLIC_URL. */
const GREETING_CALL_PATH = '/telephony/twilio/greeting-call';
const GREETING_MAX_SECONDS = 120;

function askForPin(base: string, attempt: number, retry: boolean): string {
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

function recordGreeting(base: string, greetingId: string, maxSeconds: number): string {
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

function goodbye(text: string): string {
  return twimlDocument([{ name: 'Say', children: text }, { name: 'Hangup' }]);
}

/** The TwiML of the dial-in's next turn; `base` is MANAGEMENT_PUBLIC_URL. */
export function dialInTwiml(base: string, turn: DialInTurn): string {
  switch (turn.next) {
    case 'reject':
      return twimlDocument([{ name: 'Reject' }]);
    case 'ask-pin':
      return askForPin(base, turn.attempt, turn.retry);
    case 'record':
      return recordGreeting(base, turn.greetingId, GREETING_MAX_SECONDS);
    case 'goodbye-wrong-pin':
      return goodbye('That code was not recognised. Goodbye.');
    case 'goodbye-recorded':
      return goodbye('Thank you. Your greeting has been recorded. Goodbye.');
  }
}
