import {
  audioContentType,
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
import { dialInTwiml } from './greeting-call.twiml';
import { nextDialInTurn, readDialInRequest } from './greeting-dial-in';
import { RecordingUnavailableError, type RecordingFetcher } from './recording-fetcher';
import { FINAL_CALL_STATUSES, type TwilioCallsService } from './twilio-calls.service';
import { callbackTrackingNumber, TwilioParams } from './twilio-params';

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
        const params = new TwilioParams(form);
        const callSid = params.callSid();
        const callStatus = params.callStatus();
        // Progress events (initiated, ringing, in-progress) say nothing the record needs.
        if (!FINAL_CALL_STATUSES.has(callStatus)) return emptyAnswer();
        const result = await deps.calls.statusCallback(
          callSid,
          { to: params.to(), from: params.from(), callStatus, callDuration: params.callDuration() ?? 0 },
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
        const params = new TwilioParams(form);
        const callSid = params.callSid();
        const recordingStatus = params.recordingStatus();
        const recordingSid = params.recordingSid();
        const recordingUrl = params.recordingUrl();
        if (recordingStatus === 'completed') {
          if (recordingSid === '' || recordingUrl === '')
            throw new ValidationError(recordingSid === '' ? 'RecordingSid' : 'RecordingUrl', 'is required');
          // Refused before anything is kept: a signed callback still cannot point us at another host.
          deps.recordings.allowedUrl(recordingUrl, 'RecordingUrl');
        }
        if (query.kind === 'conversation') {
          // An answered call's recording (<Dial record>, docs/telephony.md): only a completed one
          // has audio; its reference is kept, the audio fetched later by the transcription queue.
          if (recordingStatus !== 'completed') {
            log.warn({ callSid, recordingStatus }, 'provider call recording not completed: nothing kept');
            return emptyAnswer();
          }
          const result = await deps.calls.conversationCallback(
            callSid,
            query.to === undefined ? null : callbackTrackingNumber(query.to),
            {
              recordingSid: recordingSid.slice(0, 64),
              recordingUrl: recordingUrl.slice(0, 2048),
              channels: params.recordingChannels(),
              durationSeconds: params.recordingDuration(),
            },
            now,
          );
          log.info({ callSid, recordingStatus, ...result }, 'provider call recording callback');
          return emptyAnswer();
        }
        if (query.kind !== undefined) throw new ValidationError('kind', 'must be conversation, or left out');
        const greetingId = query.greeting;
        if (greetingId !== undefined) {
          await greetingRecording(deps, { greetingId, recordingStatus, recordingUrl }, now, log);
          return emptyAnswer();
        }
        const to = callbackTrackingNumber(query.to);
        const result = await deps.calls.recordingCallback(
          callSid,
          {
            to,
            recordingSid: recordingSid.slice(0, 64),
            recordingUrl: recordingUrl.slice(0, 2048),
            recordingStatus,
            recordingDuration: params.recordingDuration() ?? 0,
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
        const params = new TwilioParams(form);
        const turn = await nextDialInTurn(readDialInRequest(query, params), {
          greetingRecordNumber: deps.greetingRecordNumber,
          waitingFor: (pin) => deps.greetings.waitingFor(pin),
        });
        if (turn.next === 'record')
          log.info({ vmGreetingId: turn.greetingId }, 'greeting dial-in: PIN accepted');
        if (turn.next === 'goodbye-wrong-pin')
          log.warn({ callSid: params.loggedCallSid() }, 'greeting dial-in: three wrong PINs');
        return { kind: 'document', contentType: TWIML_TYPE, body: dialInTwiml(deps.publicUrl, turn) };
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
        contentType: audioContentType(greeting.sounddata),
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

/** Status and recording callbacks: the provider ignores the body; an empty TwiML document is always safe. */
function emptyAnswer(): ApiResponse {
  return { kind: 'document', contentType: TWIML_TYPE, body: twimlDocument([]) };
}
