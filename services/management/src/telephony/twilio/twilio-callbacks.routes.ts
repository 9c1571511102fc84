import {
  ForbiddenError,
  greetingAudioSignatureMatches,
  NotFoundError,
  ServiceUnavailableError,
  twimlDocument,
  ValidationError,
} from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { GreetingsService } from '../../greetings/greetings.service';
import type { ApiResponse } from '../../http/api-response';
import type { ProviderRouteDefinition, SignedLinkRouteDefinition } from '../../http/route-definition';
import { askForPin, goodbye, PIN_TRIES, recordGreeting } from './greeting-call.twiml';
import { RecordingUnavailableError, type RecordingFetcher } from './recording-fetcher';
import { FINAL_CALL_STATUSES, type TwilioCallsService } from './twilio-calls.service';
import {
  CALL_SID_PATTERN,
  CALL_SID_RULE,
  field,
  NUMBER_PATTERN,
  optionalSeconds,
  toE164,
} from './twilio-webhook';

export interface TwilioCallbackDependencies {
  calls: TwilioCallsService;
  greetings: GreetingsService;
  recordings: Pick<RecordingFetcher, 'fetch' | 'allowedUrl'>;
  /** TWILIO_AUTH_TOKEN; unset: every webhook is refused (403). */
  authToken: string;
  /** MANAGEMENT_PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** GREETING_RECORD_NUMBER: the only number the greeting dial-in answers. */
  greetingRecordNumber: string;
}

const FORM_LIMIT_BYTES = 64 * 1024;
const GREETING_MAX_SECONDS = 120;
const TWIML_TYPE = 'text/xml; charset=utf-8';

/**
 * The provider's callbacks on management (docs/telephony.md): route definitions for the one
 * registration (http/mount-routes.ts), authenticated by the provider's signature (the greeting
 * audio link by its own signature and expiry) instead of digest or bearer token.
 */
export function twilioCallbackRoutes(
  deps: TwilioCallbackDependencies,
): (ProviderRouteDefinition | SignedLinkRouteDefinition)[] {
  const provider = {
    method: 'POST',
    access: 'provider',
    signature: { authToken: deps.authToken, publicUrl: deps.publicUrl },
    bodyLimitBytes: FORM_LIMIT_BYTES,
  } as const;
  const callbacks: ProviderRouteDefinition[] = [
    {
      ...provider,
      path: '/telephony/twilio/call-status',
      handle: async ({ form, now, log }) => {
        const callSid = field(form, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
        const callStatus = field(form, 'CallStatus', /^[a-z-]{1,20}$/, 'must be a call status');
        // Progress events (initiated, ringing, in-progress) say nothing the record needs.
        if (!FINAL_CALL_STATUSES.has(callStatus)) return emptyAnswer();
        const to = toE164('To', field(form, 'To', NUMBER_PATTERN, 'must be a phone number'));
        const result = await deps.calls.statusCallback(
          callSid,
          {
            to,
            from: (form.get('From') ?? '').slice(0, 64),
            callStatus,
            callDuration: optionalSeconds(form, 'CallDuration') ?? 0,
          },
          now,
        );
        log.info({ callSid, callStatus, ...result }, 'provider status callback');
        return emptyAnswer();
      },
    },
    {
      ...provider,
      path: '/telephony/twilio/recording',
      handle: async ({ form, query, now, log }) => {
        const callSid = field(form, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
        const recordingStatus = field(
          form,
          'RecordingStatus',
          /^[a-z-]{1,20}$/,
          'must be a recording status',
        );
        const recordingSid = form.get('RecordingSid') ?? '';
        const recordingUrl = form.get('RecordingUrl') ?? '';
        if (recordingStatus === 'completed') {
          if (recordingSid === '' || recordingUrl === '')
            throw new ValidationError(recordingSid === '' ? 'RecordingSid' : 'RecordingUrl', 'is required');
          // Refused before anything is kept: a signed callback still cannot point us at another host.
          deps.recordings.allowedUrl(recordingUrl, 'RecordingUrl');
        }
        const greetingId = query.greeting;
        if (greetingId !== undefined) {
          await greetingRecording(deps, { greetingId, recordingStatus, recordingUrl }, now, log);
          return emptyAnswer();
        }
        const to = query.to;
        if (to === undefined || !NUMBER_PATTERN.test(to))
          throw new ValidationError('to', 'the callback URL must name the tracking number (?to=+E.164)');
        const result = await deps.calls.recordingCallback(
          callSid,
          {
            to: toE164('to', to),
            recordingSid: recordingSid.slice(0, 64),
            recordingUrl: recordingUrl.slice(0, 2048),
            recordingStatus,
            recordingDuration: optionalSeconds(form, 'RecordingDuration') ?? 0,
          },
          now,
        );
        log.info({ callSid, recordingStatus, ...result }, 'provider recording callback');
        return emptyAnswer();
      },
    },
    {
      ...provider,
      path: '/telephony/twilio/greeting-call',
      handle: async ({ form, query, log }) => {
        const step = query.step;
        let xml: string;
        if (step === undefined) {
          // Compared by its digits: the operator's dial-in number needs no tracking number's rule.
          const to = field(form, 'To', NUMBER_PATTERN, 'must be a phone number');
          xml = isGreetingNumber(to, deps.greetingRecordNumber)
            ? askForPin(deps.publicUrl, 1, false)
            : twimlDocument([{ name: 'Reject' }]);
        } else if (step === 'pin') {
          const attempt = Number(query.attempt ?? '1');
          if (!Number.isInteger(attempt) || attempt < 1 || attempt > PIN_TRIES)
            throw new ValidationError('attempt', `must be 1 to ${PIN_TRIES}`);
          const greeting = await deps.greetings.waitingFor(form.get('Digits') ?? '');
          if (greeting !== null) {
            log.info({ vmGreetingId: greeting.id }, 'greeting dial-in: PIN accepted');
            xml = recordGreeting(deps.publicUrl, greeting.id, GREETING_MAX_SECONDS);
          } else if (attempt < PIN_TRIES) {
            xml = askForPin(deps.publicUrl, attempt + 1, true);
          } else {
            log.warn({ callSid: form.get('CallSid') }, 'greeting dial-in: three wrong PINs');
            xml = goodbye('That code was not recognised. Goodbye.');
          }
        } else if (step === 'recorded') {
          xml = goodbye('Thank you. Your greeting has been recorded. Goodbye.');
        } else {
          throw new ValidationError('step', 'must be pin or recorded');
        }
        return { kind: 'document', contentType: TWIML_TYPE, body: xml };
      },
    },
  ];
  const audio: SignedLinkRouteDefinition = {
    // Fetched by the provider for <Play>; the link's own signature and expiry authenticate it.
    method: 'GET',
    path: '/telephony/greetings/:id/audio',
    access: 'signed-link',
    handle: async ({ params, query, now }) => {
      const id = params.id!;
      const expires = Number(query.expires);
      const sig = query.sig ?? '';
      if (!greetingAudioSignatureMatches(deps.authToken, id, expires, sig, now.getTime()))
        throw new ForbiddenError('Invalid or expired link');
      const greeting = await deps.greetings.withSound(id);
      if (greeting === null || greeting.sounddata === null)
        throw new NotFoundError(`recorded voicemail greeting ${id}`);
      return {
        kind: 'document',
        contentType: audioType(greeting.sounddata),
        headers: { 'Cache-Control': 'private, max-age=300' },
        body: greeting.sounddata,
      };
    },
  };
  return [...callbacks, audio];
}

async function greetingRecording(
  deps: TwilioCallbackDependencies,
  callback: { greetingId: string; recordingStatus: string; recordingUrl: string },
  now: Date,
  log: Logger,
): Promise<void> {
  const { greetingId, recordingStatus, recordingUrl } = callback;
  if (recordingStatus !== 'completed') {
    log.warn({ vmGreetingId: greetingId, recordingStatus }, 'greeting dial-in: no recording');
    return;
  }
  let audio: Buffer;
  try {
    audio = await deps.recordings.fetch(recordingUrl);
  } catch (error) {
    if (!(error instanceof RecordingUnavailableError)) throw error;
    // The provider retries the callback; the reason (a download error) stays in the log.
    log.warn({ vmGreetingId: greetingId, reason: error.message }, 'greeting recording not fetched yet');
    throw new ServiceUnavailableError('Recording not available yet; retry');
  }
  const greeting = await deps.greetings.recordFor(greetingId, audio, now);
  log.info(
    { vmGreetingId: greeting.id, bytes: greeting.datalength },
    'voicemail greeting recorded by dial-in',
  );
}

/**
 * The provider sends E.164; GREETING_RECORD_NUMBER may be written nationally (`22000000`), so the
 * configured digits must end the dialled ones.
 */
function isGreetingNumber(to: string, configured: string): boolean {
  const dialled = to.replace(/\D/g, '');
  const own = configured.replace(/\D/g, '').replace(/^00/, '');
  return own.length >= 4 && dialled.endsWith(own);
}

/** WAV or MP3 as the provider's <Play> needs to know; anything else is sent as it is. */
function audioType(audio: Buffer): string {
  if (audio.subarray(0, 4).toString('latin1') === 'RIFF') return 'audio/wav';
  if (audio.subarray(0, 3).toString('latin1') === 'ID3' || (audio[0] === 0xff && (audio[1]! & 0xe0) === 0xe0))
    return 'audio/mpeg';
  return 'application/octet-stream';
}

/** Status and recording callbacks: the provider ignores the body; an empty TwiML document is always safe. */
function emptyAnswer(): ApiResponse {
  return { kind: 'document', contentType: TWIML_TYPE, body: twimlDocument([]) };
}
