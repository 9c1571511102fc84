import {
  ForbiddenError,
  greetingAudioSignatureMatches,
  isTracklineError,
  NotFoundError,
  twimlDocument,
  ValidationError,
} from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GreetingsService } from '../../greetings/greetings.service';
import { isStoreUnreachable } from '../../http/error-handler';
import { askForPin, goodbye, PIN_TRIES, recordGreeting } from './greeting-call.twiml';
import { RecordingUnavailableError, type RecordingFetcher } from './recording-fetcher';
import { FINAL_CALL_STATUSES, type TwilioCallsService } from './twilio-calls.service';
import {
  CALL_SID_PATTERN,
  CALL_SID_RULE,
  field,
  NUMBER_PATTERN,
  optionalSeconds,
  signedForm,
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
  log: Logger;
  clock: () => Date;
}

const FORM_LIMIT = '64kb';
const GREETING_MAX_SECONDS = 120;

/**
 * The provider's callbacks on management (docs/telephony.md), mounted under /telephony before the
 * bearer-token routes: they authenticate by the provider's signature instead.
 */
export function twilioCallbackRoutes(deps: TwilioCallbackDependencies): Router {
  const router = express.Router();
  const form = express.raw({ type: () => true, limit: FORM_LIMIT });
  const signed = (request: Request) => signedForm(request, deps.publicUrl, deps.authToken);

  router.post('/twilio/call-status', form, async (request: Request, response: Response) => {
    const fields = signed(request);
    const callSid = field(fields, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
    const callStatus = field(fields, 'CallStatus', /^[a-z-]{1,20}$/, 'must be a call status');
    // Progress events (initiated, ringing, in-progress) say nothing the record needs.
    if (!FINAL_CALL_STATUSES.has(callStatus)) {
      emptyAnswer(response);
      return;
    }
    const to = toE164(field(fields, 'To', NUMBER_PATTERN, 'must be a phone number'));
    const result = await deps.calls.statusCallback(
      callSid,
      {
        to,
        from: (fields.get('From') ?? '').slice(0, 64),
        callStatus,
        callDuration: optionalSeconds(fields, 'CallDuration') ?? 0,
      },
      deps.clock(),
    );
    deps.log.info({ callSid, callStatus, ...result }, 'provider status callback');
    emptyAnswer(response);
  });

  router.post('/twilio/recording', form, async (request: Request, response: Response) => {
    const fields = signed(request);
    const query = new URL(request.originalUrl, 'http://query.invalid').searchParams;
    const callSid = field(fields, 'CallSid', CALL_SID_PATTERN, CALL_SID_RULE);
    const recordingStatus = field(fields, 'RecordingStatus', /^[a-z-]{1,20}$/, 'must be a recording status');
    const recordingSid = fields.get('RecordingSid') ?? '';
    const recordingUrl = fields.get('RecordingUrl') ?? '';
    if (recordingStatus === 'completed') {
      if (recordingSid === '' || recordingUrl === '')
        throw new ValidationError(recordingSid === '' ? 'RecordingSid' : 'RecordingUrl', 'is required');
      // Refused before anything is kept: a signed callback still cannot point us at another host.
      deps.recordings.allowedUrl(recordingUrl, 'RecordingUrl');
    }
    const greetingId = query.get('greeting');
    if (greetingId !== null) {
      await greetingRecording(deps, greetingId, recordingStatus, recordingUrl);
      emptyAnswer(response);
      return;
    }
    const to = query.get('to');
    if (to === null || !NUMBER_PATTERN.test(to))
      throw new ValidationError('to', 'the callback URL must name the tracking number (?to=+E.164)');
    const result = await deps.calls.recordingCallback(
      callSid,
      {
        to: toE164(to),
        recordingSid: recordingSid.slice(0, 64),
        recordingUrl: recordingUrl.slice(0, 2048),
        recordingStatus,
        recordingDuration: optionalSeconds(fields, 'RecordingDuration') ?? 0,
      },
      deps.clock(),
    );
    deps.log.info({ callSid, recordingStatus, ...result }, 'provider recording callback');
    emptyAnswer(response);
  });

  router.post('/twilio/greeting-call', form, async (request: Request, response: Response) => {
    const fields = signed(request);
    const query = new URL(request.originalUrl, 'http://query.invalid').searchParams;
    const step = query.get('step');
    let xml: string;
    if (step === null) {
      const to = toE164(field(fields, 'To', NUMBER_PATTERN, 'must be a phone number'));
      xml = isGreetingNumber(to, deps.greetingRecordNumber)
        ? askForPin(deps.publicUrl, 1, false)
        : twimlDocument([{ name: 'Reject' }]);
    } else if (step === 'pin') {
      const attempt = Number(query.get('attempt') ?? '1');
      if (!Number.isInteger(attempt) || attempt < 1 || attempt > PIN_TRIES)
        throw new ValidationError('attempt', `must be 1 to ${PIN_TRIES}`);
      const greeting = await deps.greetings.waitingFor(fields.get('Digits') ?? '');
      if (greeting !== null) {
        deps.log.info({ vmGreetingId: greeting.id }, 'greeting dial-in: PIN accepted');
        xml = recordGreeting(deps.publicUrl, greeting.id, GREETING_MAX_SECONDS);
      } else if (attempt < PIN_TRIES) {
        xml = askForPin(deps.publicUrl, attempt + 1, true);
      } else {
        deps.log.warn({ callSid: fields.get('CallSid') }, 'greeting dial-in: three wrong PINs');
        xml = goodbye('That code was not recognised. Goodbye.');
      }
    } else if (step === 'recorded') {
      xml = goodbye('Thank you. Your greeting has been recorded. Goodbye.');
    } else {
      throw new ValidationError('step', 'must be pin or recorded');
    }
    response.status(200).type('text/xml; charset=utf-8').send(xml);
  });

  // Fetched by the provider for <Play>; the link's own signature and expiry authenticate it.
  router.get('/greetings/:id/audio', async (request: Request, response: Response) => {
    const id = String(request.params.id);
    const expires = Number(request.query.expires);
    const sig = typeof request.query.sig === 'string' ? request.query.sig : '';
    if (!greetingAudioSignatureMatches(deps.authToken, id, expires, sig, deps.clock().getTime()))
      throw new ForbiddenError('Invalid or expired link');
    const greeting = await deps.greetings.withSound(id);
    if (greeting === null || greeting.sounddata === null)
      throw new NotFoundError(`recorded voicemail greeting ${id}`);
    response
      .status(200)
      .set({ 'Content-Type': audioType(greeting.sounddata), 'Cache-Control': 'private, max-age=300' })
      .send(greeting.sounddata);
  });

  router.use((error: unknown, request: Request, response: Response, next: NextFunction) => {
    if (!request.path.startsWith('/twilio/') && !/^\/greetings\/[^/]+\/audio$/.test(request.path)) {
      next(error);
      return;
    }
    const { status, message } = describe(error);
    if (status >= 500) deps.log.error({ err: error, path: request.originalUrl }, 'provider callback failed');
    response.status(status).json({ error: { status, message } });
  });
  return router;
}

async function greetingRecording(
  deps: TwilioCallbackDependencies,
  greetingId: string,
  recordingStatus: string,
  recordingUrl: string,
): Promise<void> {
  if (recordingStatus !== 'completed') {
    deps.log.warn({ vmGreetingId: greetingId, recordingStatus }, 'greeting dial-in: no recording');
    return;
  }
  const audio = await deps.recordings.fetch(recordingUrl);
  const greeting = await deps.greetings.recordFor(greetingId, audio, deps.clock());
  deps.log.info(
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

function describe(error: unknown): { status: number; message: string } {
  if (isTracklineError(error)) return { status: error.status, message: error.message };
  if (error instanceof RecordingUnavailableError)
    return { status: 503, message: 'Recording not available yet; retry' };
  const parserError = error as { type?: string };
  if (parserError.type === 'entity.too.large')
    return { status: 413, message: `body: must be at most ${FORM_LIMIT}` };
  // Express could not decode a path segment (%-escapes of no UTF-8 text): the link is malformed.
  if (error instanceof URIError || (error as { status?: unknown }).status === 400)
    return { status: 400, message: 'path: is not a valid link' };
  if (isStoreUnreachable(error))
    return { status: 503, message: 'Service temporarily unavailable; retry later' };
  return { status: 500, message: 'Internal error (logged)' };
}

/** WAV or MP3 as the provider's <Play> needs to know; anything else is sent as it is. */
function audioType(audio: Buffer): string {
  if (audio.subarray(0, 4).toString('latin1') === 'RIFF') return 'audio/wav';
  if (audio.subarray(0, 3).toString('latin1') === 'ID3' || (audio[0] === 0xff && (audio[1]! & 0xe0) === 0xe0))
    return 'audio/mpeg';
  return 'application/octet-stream';
}

/** Status and recording callbacks: the provider ignores the body; an empty TwiML document is always safe. */
function emptyAnswer(response: Response): void {
  response.status(200).type('text/xml; charset=utf-8').send(twimlDocument([]));
}
