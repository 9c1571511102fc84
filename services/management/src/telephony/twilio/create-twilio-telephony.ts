import { PollingWorker, type Logger } from '@trackline/platform';
import type { CdrIngestion } from '../../cdrs/cdr-ingestion.service';
import type { ManagementConfig } from '../../config/management-config';
import type { GreetingsService } from '../../greetings/greetings.service';
import type { ProviderRouteDefinition, SignedLinkRouteDefinition } from '../../http/route-definition';
import type { CallContextReader } from './call-context.reader';
import { RecordingFetcher } from './recording-fetcher';
import { twilioCallbackRoutes } from './twilio-callbacks.routes';
import { TwilioCallsService, type ConversationRecordings } from './twilio-calls.service';
import type { TwilioCallsStore } from './twilio-calls.store';

// Voicemails are short; a long one at 16-bit 8 kHz WAV is about 1 MB a minute.
const MAX_RECORDING_BYTES = 20 * 1024 * 1024;
// An answered call's dual-channel WAV is about 2 MB a minute: some 70 minutes.
const MAX_CONVERSATION_BYTES = 128 * 1024 * 1024;

export interface TwilioTelephony {
  /** The provider's callbacks and the greeting audio link, for the one route registration. */
  routes: (ProviderRouteDefinition | SignedLinkRouteDefinition)[];
  calls: TwilioCallsService;
  /** Downloads answered calls' recordings (the transcription worker's audio side), with their own size cap. */
  conversationDownloads: RecordingFetcher;
  /**
   * Completes calls whose callbacks stopped, every TWILIO_SWEEP_INTERVAL_MS; not started (the
   * service process starts it, the tests drive `calls.sweep` themselves).
   */
  sweep: PollingWorker;
}

/** The provider-callback feature on its stores (docs/telephony.md); composition/ builds them. */
export function createTwilioTelephony(deps: {
  config: ManagementConfig;
  /** The provider calls in progress (Postgres). */
  store: TwilioCallsStore;
  /** Replacement's attribution of a call, read when it starts (Redis). */
  contexts: CallContextReader;
  ingestion: CdrIngestion;
  /** Keeps an answered call's recording reference with its transcription job (call_recordings). */
  conversations: ConversationRecordings;
  greetings: GreetingsService;
  logger: Logger;
  clock: () => Date;
}): TwilioTelephony {
  const { config, logger, clock } = deps;
  const fetcher = (maxBytes: number) => recordingFetcher(config, maxBytes);
  const recordings = fetcher(MAX_RECORDING_BYTES);
  const calls = new TwilioCallsService(
    deps.store,
    deps.contexts,
    recordings,
    deps.ingestion,
    deps.conversations,
    { graceMs: config.twilio.graceSeconds * 1000 },
    logger,
  );
  const routes = twilioCallbackRoutes({
    calls,
    greetings: deps.greetings,
    recordings,
    authToken: config.twilio.authToken,
    publicUrl: config.twilio.publicUrl,
    greetingRecordNumber: config.greetingRecordNumber,
  });
  return {
    routes,
    calls,
    conversationDownloads: conversationRecordingFetcher(config),
    sweep: new PollingWorker({
      name: 'provider call sweep',
      round: async () => {
        await calls.sweep(clock());
        return 'idle';
      },
      idleMs: config.twilio.sweepIntervalMs,
      // A failed sweep is tried again at the next interval, as before a sweep that succeeded.
      errorBackoff: { firstMs: config.twilio.sweepIntervalMs, maxMs: config.twilio.sweepIntervalMs },
      onError: (error, failures) => logger.error({ err: error, failures }, 'provider call sweep failed'),
    }),
  };
}

/** The provider's recording downloads, with the host rules and credentials of the config. */
function recordingFetcher(config: Pick<ManagementConfig, 'twilio'>, maxBytes: number): RecordingFetcher {
  return new RecordingFetcher({
    allowedHosts: config.twilio.recordingHosts,
    accountSid: config.twilio.accountSid,
    authToken: config.twilio.authToken,
    timeoutMs: config.twilio.recordingTimeoutMs,
    maxBytes,
  });
}

/** Answered calls' recordings, for the transcription worker: their own, larger size cap. */
export function conversationRecordingFetcher(config: Pick<ManagementConfig, 'twilio'>): RecordingFetcher {
  return recordingFetcher(config, MAX_CONVERSATION_BYTES);
}
