import type { Logger } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { CdrIngestion } from '../../cdrs/cdr-ingestion.service';
import type { ManagementConfig } from '../../config/management-config';
import type { GreetingsService } from '../../greetings/greetings.service';
import type { ProviderRouteDefinition, SignedLinkRouteDefinition } from '../../http/route-definition';
import { RedisCallContextReader, type CallContextRedis } from './call-context.reader';
import { RecordingFetcher } from './recording-fetcher';
import { twilioCallbackRoutes } from './twilio-callbacks.routes';
import { TwilioCallsService } from './twilio-calls.service';
import { TypeormTwilioCallsStore } from './twilio-calls.store';

// Voicemails are short; a long one at 16-bit 8 kHz WAV is about 1 MB a minute.
const MAX_RECORDING_BYTES = 20 * 1024 * 1024;

export interface TwilioTelephony {
  /** The provider's callbacks and the greeting audio link, for the one route registration. */
  routes: (ProviderRouteDefinition | SignedLinkRouteDefinition)[];
  calls: TwilioCallsService;
  /** Starts the sweep that completes calls whose callbacks stopped; returns its stop function. */
  startSweep(): () => void;
}

/** The provider-callback feature, built from the config and the shared stores (docs/telephony.md). */
export function createTwilioTelephony(deps: {
  config: ManagementConfig;
  dataSource: DataSource;
  redis: CallContextRedis;
  ingestion: CdrIngestion;
  greetings: GreetingsService;
  logger: Logger;
  clock: () => Date;
}): TwilioTelephony {
  const { config, logger, clock } = deps;
  const recordings = new RecordingFetcher({
    allowedHosts: config.twilio.recordingHosts,
    accountSid: config.twilio.accountSid,
    authToken: config.twilio.authToken,
    timeoutMs: config.twilio.recordingTimeoutMs,
    maxBytes: MAX_RECORDING_BYTES,
  });
  const calls = new TwilioCallsService(
    new TypeormTwilioCallsStore(deps.dataSource.manager),
    new RedisCallContextReader(deps.redis, config.redis.keyPrefix),
    recordings,
    deps.ingestion,
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
    startSweep: () => {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        calls
          .sweep(clock())
          .catch((error: unknown) => logger.error({ err: error }, 'provider call sweep failed'))
          .finally(() => {
            running = false;
          });
      }, config.twilio.sweepIntervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
