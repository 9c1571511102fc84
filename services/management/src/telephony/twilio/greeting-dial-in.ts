import { ValidationError } from '@trackline/domain';
import type { TwilioParams } from './twilio-params';

// The greeting dial-in (docs/telephony.md, docs/voicemail-greetings.md): the operator's number
// answers, asks for the greeting's PIN up to three times, records the greeting, and says goodbye.

export const PIN_TRIES = 3;

/** Which step of the dial-in the provider is asking about, from its callback URL and parameters. */
export type DialInRequest =
  { step: 'call'; dialled: string } | { step: 'pin'; attempt: number; digits: string } | { step: 'recorded' };

/** What the call does next. */
export type DialInTurn =
  | { next: 'reject' }
  | { next: 'ask-pin'; attempt: number; retry: boolean }
  | { next: 'record'; greetingId: string }
  | { next: 'goodbye-wrong-pin' }
  | { next: 'goodbye-recorded' };

export interface DialInDeps {
  /** GREETING_RECORD_NUMBER: the only number the dial-in answers. */
  greetingRecordNumber: string;
  /** The greeting waiting for a recording under this PIN, if any. */
  waitingFor(pin: string): Promise<{ id: string } | null>;
}

/** The step named by `?step=` (absent on the first webhook) and `?attempt=`. */
export function readDialInRequest(query: Record<string, string>, params: TwilioParams): DialInRequest {
  const step = query.step;
  if (step === undefined) return { step: 'call', dialled: params.dialled() };
  if (step === 'pin') {
    const attempt = Number(query.attempt ?? '1');
    if (!Number.isInteger(attempt) || attempt < 1 || attempt > PIN_TRIES)
      throw new ValidationError('attempt', `must be 1 to ${PIN_TRIES}`);
    return { step: 'pin', attempt, digits: params.digits() };
  }
  if (step === 'recorded') return { step: 'recorded' };
  throw new ValidationError('step', 'must be pin or recorded');
}

export async function nextDialInTurn(request: DialInRequest, deps: DialInDeps): Promise<DialInTurn> {
  switch (request.step) {
    case 'call':
      return isGreetingNumber(request.dialled, deps.greetingRecordNumber)
        ? { next: 'ask-pin', attempt: 1, retry: false }
        : { next: 'reject' };
    case 'pin': {
      const greeting = await deps.waitingFor(request.digits);
      if (greeting !== null) return { next: 'record', greetingId: greeting.id };
      return request.attempt < PIN_TRIES
        ? { next: 'ask-pin', attempt: request.attempt + 1, retry: true }
        : { next: 'goodbye-wrong-pin' };
    }
    case 'recorded':
      return { next: 'goodbye-recorded' };
  }
}

/**
 * The provider sends E.164; GREETING_RECORD_NUMBER may be written nationally (`22000000`), so the
 * configured digits must end the dialled ones. Compared by digits: the operator's dial-in number
 * needs no tracking number's rule.
 */
function isGreetingNumber(to: string, configured: string): boolean {
  const dialled = to.replace(/\D/g, '');
  const own = configured.replace(/\D/g, '').replace(/^00/, '');
  return own.length >= 4 && dialled.endsWith(own);
}
