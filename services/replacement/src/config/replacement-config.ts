import { assertKeyPrefix, DEFAULT_KEY_PREFIX } from '@trackline/contracts';
import {
  EnvReader,
  LOG_LEVELS,
  readHttpLimits,
  type Env,
  type HttpLimits,
  type LogLevel,
} from '@trackline/platform';

/** Every setting of the replacement service, read once at start (docs/configuration.md lists them). */
export interface ReplacementConfig {
  /** REPLACEMENT_PORT, default 8080. */
  port: number;
  /** REPLACEMENT_HOST, default 0.0.0.0. */
  host: string;
  redis: {
    /** REDIS_URL, default redis://127.0.0.1:6379 (ignored when REDIS_CLUSTER_NODES is set). */
    url: string;
    /** REDIS_CLUSTER_NODES: comma-separated host:port seeds of a Redis Cluster. */
    clusterNodes: string[];
    /** REDIS_KEY_PREFIX: namespace in front of every key; management must use the same. */
    keyPrefix: string;
    /** REDIS_COMMAND_TIMEOUT_MS, default 100: a command unanswered this long fails the request. */
    commandTimeoutMs: number;
    /** REDIS_CONNECT_TIMEOUT_MS, default 1000. */
    connectTimeoutMs: number;
    /** REDIS_MAX_RECONNECT_DELAY_MS, default 1000: longest pause between reconnection attempts. */
    maxReconnectDelayMs: number;
  };
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
  const keyPrefix = read.string('REDIS_KEY_PREFIX', DEFAULT_KEY_PREFIX);
  const port = read.port('REPLACEMENT_PORT', 8080);
  // Only for the local default of MANAGEMENT_PUBLIC_URL (where `pnpm start` serves management).
  const managementPort = read.port('MANAGEMENT_PORT', 8443);
  const config: ReplacementConfig = {
    port,
    host: read.string('REPLACEMENT_HOST', '0.0.0.0'),
    redis: {
      url: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
      clusterNodes: read.list('REDIS_CLUSTER_NODES'),
      keyPrefix,
      commandTimeoutMs: read.integer('REDIS_COMMAND_TIMEOUT_MS', 100, { min: 10, max: 10_000 }),
      connectTimeoutMs: read.integer('REDIS_CONNECT_TIMEOUT_MS', 1000, { min: 50, max: 60_000 }),
      maxReconnectDelayMs: read.integer('REDIS_MAX_RECONNECT_DELAY_MS', 1000, { min: 50, max: 60_000 }),
    },
    storeDeadlineMs: read.integer('REQUEST_STORE_DEADLINE_MS', 150, { min: 10, max: 10_000 }),
    partnerConfigCacheMs: read.integer('PARTNER_CONFIG_CACHE_MS', 1000, { min: 0, max: 1000 }),
    telephonyToken: read.string('TELEPHONY_TOKEN', ''),
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
  try {
    assertKeyPrefix(keyPrefix);
  } catch {
    read.reject('REDIS_KEY_PREFIX', 'must not contain braces or whitespace');
  }
  for (const node of config.redis.clusterNodes) {
    if (!/^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(node))
      read.reject('REDIS_CLUSTER_NODES', `${node} is not host:port`);
  }
  read.done();
  return config;
}

const HTTP_PROTOCOLS = ['http:', 'https:'];

/** A base URL without a trailing slash, so `<base>/telephony/...` is the exact URL the provider signs. */
function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
