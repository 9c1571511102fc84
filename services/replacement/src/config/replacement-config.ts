import {
  EnvReader,
  LOG_LEVELS,
  readHttpLimits,
  readRedisSettings,
  readTelephonyToken,
  type Env,
  type HttpLimits,
  type LogLevel,
  type RedisSettings,
} from '@trackline/platform';

/** Every setting of the replacement service, read once at start (docs/configuration.md lists them). */
export interface ReplacementConfig {
  /** REPLACEMENT_PORT, default 8080. */
  port: number;
  /** REPLACEMENT_HOST, default 0.0.0.0. */
  host: string;
  /**
   * REDIS_URL, REDIS_CLUSTER_NODES, REDIS_KEY_PREFIX (shared with management, read by the same rules);
   * REDIS_COMMAND_TIMEOUT_MS default 100 (a command unanswered this long fails the request),
   * REDIS_CONNECT_TIMEOUT_MS default 1000, REDIS_MAX_RECONNECT_DELAY_MS default 1000.
   */
  redis: RedisSettings;
  /**
   * REQUEST_STORE_DEADLINE_MS, default 150: all Redis work of one request must finish in this time
   * (two commands on a cache miss could otherwise add up past the 200 ms answer budget).
   */
  storeDeadlineMs: number;
  /**
   * PARTNER_CONFIG_CACHE_MS, default 1000, at most 1000: how long a partner's projected settings
   * are reused in process, so a request costs one Redis round trip. A change made in management
   * (new secret, pool setting) is therefore seen within this time. Whether a number on a page is a
   * tracking number (no call loops, docs/numbers-and-sources.md) is remembered as long.
   */
  partnerConfigCacheMs: number;
  /** TELEPHONY_TOKEN: bearer token of the switch; unset means /telephony/route refuses everyone. */
  telephonyToken: string;
  /** SHUTDOWN_TIMEOUT_MS, default 10000: how long requests in flight may finish after SIGTERM. */
  shutdownTimeoutMs: number;
  /** LOG_LEVEL, default info. */
  logLevel: LogLevel;
  /** Slow-client limits of the port (docs/configuration.md, HTTP limits). */
  http: HttpLimits;
  /** Provider voice webhooks, /telephony/twilio/* (docs/telephony.md). */
  twilio: TwilioVoiceConfig;
}

export interface TwilioVoiceConfig {
  /** TWILIO_AUTH_TOKEN: the HMAC key of the webhook signatures; unset means every webhook is refused (403). */
  authToken: string;
  /** REPLACEMENT_PUBLIC_URL: this service's base URL as the provider sees it; signatures are checked against it. */
  publicUrl: string;
  /** MANAGEMENT_PUBLIC_URL: management's base URL as the provider sees it (recording callbacks, greeting audio). */
  managementPublicUrl: string;
  /** TWILIO_RING_TIMEOUT_SECONDS, default 20: how long `<Dial>` rings the answering phone. */
  ringTimeoutSeconds: number;
  /** TWILIO_GREETING_LINK_SECONDS, default 3600: how long a greeting audio link in `<Play>` stays valid. */
  greetingLinkSeconds: number;
  /** TWILIO_VOICEMAIL_MAX_SECONDS, default 120: `<Record maxLength>` of a voicemail. */
  voicemailMaxSeconds: number;
}

export function loadReplacementConfig(env: Env): ReplacementConfig {
  const read = new EnvReader(env);
  const port = read.port('REPLACEMENT_PORT', 8080);
  // Only for the local default of MANAGEMENT_PUBLIC_URL (where `pnpm start` serves management).
  const managementPort = read.port('MANAGEMENT_PORT', 8443);
  const config: ReplacementConfig = {
    port,
    host: read.string('REPLACEMENT_HOST', '0.0.0.0'),
    redis: readRedisSettings(read, {
      commandTimeoutMs: 100,
      connectTimeoutMs: 1000,
      maxReconnectDelayMs: 1000,
    }),
    storeDeadlineMs: read.integer('REQUEST_STORE_DEADLINE_MS', 150, { min: 10, max: 10_000 }),
    partnerConfigCacheMs: read.integer('PARTNER_CONFIG_CACHE_MS', 1000, { min: 0, max: 1000 }),
    telephonyToken: readTelephonyToken(read),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, { min: 0, max: 600_000 }),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    http: readHttpLimits(read, {
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 10_000,
      // Partners keep connections open between requests; outlive a typical proxy's idle timeout.
      keepAliveTimeoutMs: 65_000,
      maxRequestsPerSocket: 0,
    }),
    twilio: {
      authToken: read.string('TWILIO_AUTH_TOKEN', ''),
      // The local defaults are where `pnpm start` serves the two services on this machine.
      publicUrl: withoutTrailingSlash(
        read.url('REPLACEMENT_PUBLIC_URL', `http://127.0.0.1:${port}`, HTTP_PROTOCOLS)!,
      ),
      managementPublicUrl: withoutTrailingSlash(
        read.url('MANAGEMENT_PUBLIC_URL', `https://127.0.0.1:${managementPort}`, HTTP_PROTOCOLS)!,
      ),
      ringTimeoutSeconds: read.integer('TWILIO_RING_TIMEOUT_SECONDS', 20, { min: 5, max: 600 }),
      greetingLinkSeconds: read.integer('TWILIO_GREETING_LINK_SECONDS', 3600, { min: 60, max: 86_400 }),
      voicemailMaxSeconds: read.integer('TWILIO_VOICEMAIL_MAX_SECONDS', 120, { min: 5, max: 3600 }),
    },
  };
  read.done();
  return config;
}

const HTTP_PROTOCOLS = ['http:', 'https:'];

/** A base URL without a trailing slash, so `<base>/telephony/...` is the exact URL the provider signs. */
function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
