import { isKeySafeAdvId, type CallRecordingDecision } from '@trackline/contracts';
import { greetingAudioSignature, twimlDocument, type TwimlNode } from '@trackline/domain';
import type { TwilioVoiceConfig } from '../../config/replacement-config';
import type { RouteDecision } from '../call-routing.service';

/** Paths of the provider webhooks on this service (docs/telephony.md). */
export const TWILIO_PATHS = {
  voice: '/telephony/twilio/voice',
  dialResult: '/telephony/twilio/dial-result',
  recorded: '/telephony/twilio/recorded',
  screen: '/telephony/twilio/screen',
} as const;

/** A partner's call handling (its projected settings, else the service defaults). */
export interface CallHandling {
  ringTimeoutSeconds: number;
  screenCalls: boolean;
  /** Record the answered call, after the consent announcement (the source's settings, else the partner's). */
  recording: CallRecordingDecision;
}

/** What the dial-result request needs to know about the dial it follows; carried in its signed action URL. */
export interface DialContext {
  advId: string;
  /** The dialled tracking number, so the recording callback can find the partner. */
  bnum: string;
  onBusy: boolean;
  onNoAnswer: boolean;
  vmGreetingId: string | null;
  /** The answering phone must press 1 (call screening). */
  screened: boolean;
}

const VOICEMAIL_PROMPT = 'Please leave a message after the tone.';

/**
 * Renders a routing decision (docs/telephony.md): dial → `<Dial action=dial-result>` around one
 * `<Number>`; voicemail → greeting then `<Record>`; reject → `<Reject/>`. `now` is epoch ms.
 */
export function decisionTwiml(
  decision: RouteDecision,
  bnum: string,
  config: TwilioVoiceConfig,
  handling: CallHandling,
  now: number,
): string {
  if (decision.action === 'reject' || decision.partner === null) return rejectTwiml();
  if (decision.action === 'voicemail') {
    return voicemailTwiml(config, bnum, decision.vm_greeting_id ?? null, now);
  }
  const context: DialContext = {
    advId: decision.partner,
    bnum,
    onBusy: decision.on_busy === 'voicemail',
    onNoAnswer: decision.on_no_answer === 'voicemail',
    vmGreetingId: decision.vm_greeting_id ?? null,
    screened: handling.screenCalls,
  };
  const screenUrl = handling.screenCalls
    ? `${config.publicUrl}${TWILIO_PATHS.screen}?${new URLSearchParams({ adv: decision.partner })}`
    : undefined;
  const { record, consentAnnouncement } = handling.recording;
  // Said before the dial, so the caller hears it before anything is recorded (docs/telephony.md,
  // Recording answered calls): two-party-consent jurisdictions need it.
  const announcement: TwimlNode[] =
    record && consentAnnouncement !== '' ? [{ name: 'Say', children: consentAnnouncement }] : [];
  return twimlDocument([
    ...announcement,
    {
      name: 'Dial',
      attributes: {
        action: `${config.publicUrl}${TWILIO_PATHS.dialResult}?${dialQuery(context)}`,
        method: 'POST',
        timeout: handling.ringTimeoutSeconds,
        answerOnBridge: 'true',
        ...(record ? recordingAttributes(config, bnum) : {}),
      },
      children: [
        {
          name: 'Number',
          attributes: { url: screenUrl, method: screenUrl === undefined ? undefined : 'POST' },
          children: decision.target ?? '',
        },
      ],
    },
  ]);
}

/**
 * Caller and answerer on two channels from the answer on (ringing and the screening whisper are not
 * recorded); the completed recording is reported to management, which keeps its reference.
 */
function recordingAttributes(config: TwilioVoiceConfig, bnum: string): Record<string, string> {
  return {
    record: 'record-from-answer-dual',
    recordingStatusCallback: recordingCallbackUrl(config, bnum, 'conversation'),
    recordingStatusCallbackMethod: 'POST',
    recordingStatusCallbackEvent: 'completed',
  };
}

/** Management's recording callback; `to` finds the partner, `kind` tells a conversation from a voicemail. */
function recordingCallbackUrl(config: TwilioVoiceConfig, bnum: string, kind?: 'conversation'): string {
  const query = new URLSearchParams({ to: bnum, ...(kind === undefined ? {} : { kind }) });
  return `${config.managementPublicUrl}/telephony/twilio/recording?${query.toString()}`;
}

export function rejectTwiml(): string {
  return twimlDocument([{ name: 'Reject' }]);
}

export function hangupTwiml(): string {
  return twimlDocument([{ name: 'Hangup' }]);
}

/** The source's greeting (a signed, expiring link to management) or a spoken prompt, then `<Record>`. */
export function voicemailTwiml(
  config: TwilioVoiceConfig,
  bnum: string,
  vmGreetingId: string | null,
  now: number,
): string {
  const greeting: TwimlNode =
    vmGreetingId === null
      ? { name: 'Say', children: VOICEMAIL_PROMPT }
      : { name: 'Play', children: greetingAudioUrl(config, vmGreetingId, now) };
  return twimlDocument([
    greeting,
    {
      name: 'Record',
      attributes: {
        action: `${config.publicUrl}${TWILIO_PATHS.recorded}`,
        method: 'POST',
        maxLength: config.voicemailMaxSeconds,
        playBeep: 'true',
        recordingStatusCallback: recordingCallbackUrl(config, bnum),
        recordingStatusCallbackMethod: 'POST',
      },
    },
  ]);
}

export function greetingAudioUrl(config: TwilioVoiceConfig, vmGreetingId: string, now: number): string {
  const expires = Math.floor(now / 1000) + config.greetingLinkSeconds;
  const sig = greetingAudioSignature(config.authToken, vmGreetingId, expires);
  const query = new URLSearchParams({ expires: String(expires), sig }).toString();
  return `${config.managementPublicUrl}/telephony/greetings/${encodeURIComponent(vmGreetingId)}/audio?${query}`;
}

function dialQuery(context: DialContext): string {
  const divert = [context.onBusy ? 'busy' : null, context.onNoAnswer ? 'no-answer' : null].filter(
    (value) => value !== null,
  );
  const query = new URLSearchParams({ adv: context.advId, to: context.bnum, divert: divert.join(' ') });
  if (context.vmGreetingId !== null) query.set('greeting', context.vmGreetingId);
  if (context.screened) query.set('screen', '1');
  return query.toString();
}

/** Reads back what dialQuery wrote; null when the URL was not one of ours. */
export function parseDialQuery(query: URLSearchParams): DialContext | null {
  const advId = query.get('adv');
  const bnum = query.get('to');
  const divert = query.get('divert');
  if (!isKeySafeAdvId(advId) || bnum === null || divert === null) return null;
  const kinds = divert.split(' ');
  const greeting = query.get('greeting');
  return {
    advId,
    bnum,
    onBusy: kinds.includes('busy'),
    onNoAnswer: kinds.includes('no-answer'),
    vmGreetingId: greeting === null || greeting === '' ? null : greeting,
    screened: query.get('screen') === '1',
  };
}

/** The whisper to the answering phone of a screened call: press 1 to take it, else it is hung up. */
export function screenTwiml(config: TwilioVoiceConfig, advId: string): string {
  return twimlDocument([
    {
      name: 'Gather',
      attributes: {
        input: 'dtmf',
        numDigits: 1,
        timeout: 8,
        action: `${config.publicUrl}${TWILIO_PATHS.screen}?${new URLSearchParams({ adv: advId, step: 'answer' })}`,
        method: 'POST',
      },
      children: [{ name: 'Say', children: 'You have a call from a Trackline number. Press 1 to accept.' }],
    },
    { name: 'Hangup' },
  ]);
}

/** Pressed 1: an empty answer ends the whisper and connects the call. */
export function connectTwiml(): string {
  return twimlDocument([]);
}
