import { DEFAULT_HEAP_GROWING_PERCENT } from './heap-growth';
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
import { AddressList } from '../http/address-list';

/** Every setting of the management service, read once at start (docs/configuration.md lists them). */
export interface ManagementConfig {
  port: number;
  host: string;
  /** Folder for generated files (the self-signed certificate). */
  dataDir: string;
  databaseUrl: string;
  /**
   * A read replica for queries that tolerate replication lag (CDR statistics pages); unset, they
   * run on the primary. Never migrated, never written.
   */
  databaseReadUrl?: string;
  /** Connections of the service's main pool (API, consumers, provider calls), and of a CLI command. */
  databasePoolSize: number;
  /** Connections of the read replica's pool. */
  databaseReadPoolSize: number;
  /**
   * Connections of the call records' own pool (`POST /telephony/cdrs`, provider calls), whose
   * statements always run on generic plans (docs/operations.md, Call records' pool).
   */
  databaseIngestionPoolSize: number;
  /**
   * Statements the process sends repeatedly go as named prepared statements (db/prepared-statements.ts);
   * off for a pooler that cannot carry them (docs/operations.md, Prepared statements).
   */
  databasePreparedStatements: boolean;
  /**
   * Shared with the replacement service (docs/configuration.md). A command unanswered for
   * commandTimeoutMs fails its request with 503 (a frozen Redis); connectTimeoutMs is also how long
   * the start waits for Redis before going on without it.
   */
  redis: RedisSettings;
  /** Healing the Redis projections after Redis lost its data (docs/redis-keys.md, Projection generation). */
  projections: {
    /** How often each replica checks the generation marker (also checked on every Redis reconnection). */
    checkIntervalMs: number;
    /** How long one replica's rebuild keeps the others from starting the same rebuild. */
    rebuildLockMs: number;
  };
  /** One readiness check (`GET /ready`) waits at most this long: a probe answers even when a store hangs. */
  readinessTimeoutMs: number;
  /** At shutdown, how long requests in flight may finish before their connections are closed. */
  shutdownTimeoutMs: number;
  /**
   * HEAP_GROWING_PERCENT: how far V8 lets the old generation grow past what the last full
   * collection kept before it starts the next (composition/heap-growth.ts); 0 leaves it to V8.
   */
  heapGrowingPercent: number;
  /** Slow-client limits of the partner API's port (docs/configuration.md, HTTP limits). */
  http: HttpLimits;
  tls: { certFile?: string; keyFile?: string };
  /** Addresses (IPs or CIDRs) of TLS-terminating proxies whose X-Forwarded-* headers are trusted. */
  trustProxy: AddressList;
  /** Addresses (IPs or CIDRs) allowed to read GET /metrics; it names every partner. */
  metricsAllowIp: AddressList;
  /** Authenticated partner requests per minute of a partner without its own limit, all replicas together; 0: none. */
  rateLimitPerMinute: number;
  digest: {
    realm: string;
    /** HMAC key for stateless nonces; every replica must share it. */
    nonceSecret: string;
    nonceTtlSeconds: number;
  };
  /** The switch's bearer token for /telephony/*; empty (unset) refuses everyone. */
  telephonyToken: string;
  greetingRecordNumber: string;
  smtpUrl?: string;
  smtpFrom: string;
  smsGatewayUrl?: string;
  logLevel: LogLevel;
  /** The consumer of the replacement service's customer-seen streams (docs/redis-keys.md, Customer-seen stream). */
  customerEvents: {
    /** XREADGROUP BLOCK; bounds how long a new customer takes to appear (well under 1 s). */
    blockMs: number;
    /** Entries read per stream per round. */
    batchSize: number;
    /** Pending this long in another consumer, an entry is taken over (that process died). */
    reclaimIdleMs: number;
    /** How often the partner list is re-read, so new partners' streams are consumed without a restart. */
    partnerRefreshMs: number;
    /** Pause before retrying an entry the database refused, or after a Redis error. */
    retryDelayMs: number;
    /** Connection timeout of the consumer's own Redis connection. */
    connectTimeoutMs: number;
    /** A blocked read's command timeout is blockMs plus this, so a blocked read is never cut off. */
    commandMarginMs: number;
  };
  /** The notification outbox worker (docs/notifications.md). */
  notifications: {
    /** Deliveries tried per row before it is marked dead. */
    maxAttempts: number;
    /** Wait after the first failure; doubles with each further one (capped at an hour). */
    baseDelayMs: number;
    /** How long a claimed row belongs to its worker; after that (a crashed worker) any worker retries it. */
    leaseMs: number;
    /** Pause between claims when the outbox had nothing due. */
    pollMs: number;
    /** Connections of the worker's own pool (e-mail, SMS and webhooks), apart from the API's. */
    databasePoolSize: number;
  };
  /** Partner webhooks (docs/webhooks.md), delivered by the notification worker process. */
  webhooks: {
    /** Hosts that may be plain http and resolve to any address (local development, tests). */
    insecureHosts: string[];
    /** One delivery attempt, connect to last byte read; must leave half the lease free. */
    timeoutMs: number;
    /** Attempts per delivery before it is marked dead. */
    maxAttempts: number;
    /** Wait after the first failure; doubles with each further one (capped at an hour). */
    baseDelayMs: number;
    /** Deliveries in flight at once in one worker process. */
    concurrency: number;
    /** Deliveries in flight at once to one webhook, so a slow endpoint holds few slots. */
    perEndpoint: number;
    /** A webhook failing every attempt this long is disabled (docs/webhooks.md, Disabled endpoints). */
    disableAfterSeconds: number;
  };
  /** Conversion export to Google Ads and GA4 (docs/conversions.md), by the notification worker process. */
  conversions: {
    /** CONVERSIONS_GA4_URL: the Measurement Protocol's base URL (`/mp/collect` is added). */
    ga4BaseUrl: string;
    /** CONVERSIONS_GOOGLE_ADS_URL: the Google Ads API's base URL (`/<version>/customers/…` is added). */
    googleAdsBaseUrl: string;
    /** CONVERSIONS_GOOGLE_ADS_API_VERSION: the Google Ads API version segment (`v21`). */
    googleAdsApiVersion: string;
    /** CONVERSIONS_OAUTH_TOKEN_URL: Google's OAuth token endpoint (refresh-token exchange). */
    oauthTokenUrl: string;
    /** One request to Google, connect to last byte read. */
    timeoutMs: number;
    /** Attempts per conversion before it is marked dead. */
    maxAttempts: number;
    /** Wait after the first failure; doubles with each further one (capped at an hour). */
    baseDelayMs: number;
    /** Conversions taken per round; each partner's share is at most this divided by the partners with work. */
    batchSize: number;
    /** Pause between rounds when nothing was due. */
    pollMs: number;
    /** Connections of the exporter's own pool, apart from the API's. */
    databasePoolSize: number;
  };
  /**
   * The speech engine behind the standard transcription interface (docs/call-intelligence.md);
   * null when STT_BASE_URL is unset: nothing is ever sent anywhere.
   */
  stt: {
    /** STT_BASE_URL, without a trailing slash: `/v1/audio/transcriptions` is added. */
    baseUrl: string;
    /** STT_API_KEY: sent as a bearer token when set. */
    apiKey: string | null;
    /** STT_MODEL: the `model` field of each request. */
    model: string;
    /** STT_CONCURRENCY: requests in flight at once per process. */
    concurrency: number;
    /** STT_TIMEOUT_MS: one request, connect to last byte read. */
    timeoutMs: number;
  } | null;
  /** The transcription queue's retries (docs/call-intelligence.md, The queue). */
  transcription: {
    maxAttempts: number;
    /** Wait after the first failure; doubles with each further one (capped at an hour). */
    baseDelayMs: number;
    pollMs: number;
    /** Connections of the transcription worker's own pool. */
    databasePoolSize: number;
  };
  /** The monthly report e-mail (docs/reports.md). */
  reports: {
    /** Off: no replica enqueues reports on its own; `reports:send` still works. */
    scheduleEnabled: boolean;
    /** After 06:00 on the 1st, how long a replica that was down still sends last month's reports. */
    catchUpHours: number;
    /** Calls listed in the attached CSV at most; more are left out and the e-mail says so. */
    csvMaxRows: number;
    /** Connections of the schedule's own pool. */
    databasePoolSize: number;
  };
  /** Provider voice webhooks and callbacks, /telephony/twilio/* (docs/telephony.md). */
  twilio: {
    /** TWILIO_AUTH_TOKEN: HMAC key of the webhook signatures and password of recording downloads. */
    authToken: string;
    /** TWILIO_ACCOUNT_SID: user name of recording downloads. */
    accountSid: string;
    /** MANAGEMENT_PUBLIC_URL: this service's base URL as the provider sees it; signatures are checked against it. */
    publicUrl: string;
    /** RECORDING_HOSTS: the only hosts recordings are downloaded from. */
    recordingHosts: string[];
    /** TWILIO_CALLBACK_GRACE_SECONDS: a call whose callbacks stop is completed from what arrived after this. */
    graceSeconds: number;
    /** TWILIO_SWEEP_INTERVAL_MS: how often calls past their grace period are looked for. */
    sweepIntervalMs: number;
    /** TWILIO_RECORDING_TIMEOUT_MS: one recording download's time limit. */
    recordingTimeoutMs: number;
  };
  /** Buying and releasing numbers at the partners' carriers (docs/carrier-numbers.md). */
  carrier: {
    /** REPLACEMENT_PUBLIC_URL: the replacement service's base URL as the provider reaches it; bought numbers' VoiceUrl is built on it. */
    replacementPublicUrl: string;
    /** CARRIER_TIMEOUT_MS: one request to the carrier, connect to last byte read. */
    timeoutMs: number;
    /** CARRIER_RATE_LIMIT_RETRIES: a 429 is asked again this many times before it is reported. */
    rateLimitRetries: number;
    /** CARRIER_RETRY_DELAY_MS: the wait before the first repeat of a 429, doubled each time. */
    retryDelayMs: number;
  };
  /** The daily data lifecycle job and the monthly partitions of "cdrs" (docs/privacy.md). */
  dataLifecycle: {
    /** UTC hour the daily run is due. */
    hourUtc: number;
    /** How often each replica asks whether the run is due (one replica runs it). */
    checkMs: number;
    /** Months ahead of the current one that must have a partition. */
    monthsAhead: number;
    /** Days a change of the call records' change feed is kept (docs/cdrs.md, Change feed). */
    cdrChangeRetentionDays: number;
    /** Connections of the job's own pool, so a long delete never holds one API requests wait for. */
    databasePoolSize: number;
  };
  /** The pool telemetry rollup, Redis counters into Postgres (docs/pool-sizing.md). */
  poolTelemetry: {
    /** Pause between rollups on each replica. */
    intervalMs: number;
    /** Connections of the rollup's own pool. */
    databasePoolSize: number;
  };
  /** Pools that size themselves (docs/pool-sizing.md, Autoscaling). */
  poolAutoscaling: {
    /** How often each autoscaling pool is evaluated (an hour). */
    intervalMs: number;
    /** How often each replica looks for pools due; the one that claims a pool evaluates it. */
    checkMs: number;
  };
  /** One-shot operator commands (`pnpm trackline ...`); their connection waits rather than fails. */
  cli: {
    /** A Redis command unanswered this long fails the command. */
    redisCommandTimeoutMs: number;
    /** Longest pause between reconnection attempts while the command runs. */
    redisMaxReconnectDelayMs: number;
  };
}

/** Where Twilio and SignalWire serve recordings (docs/configuration.md). */
export const DEFAULT_RECORDING_HOSTS = ['api.twilio.com', '*.signalwire.com'] as const;

/** Loopback only: a scraper elsewhere must be named (docs/configuration.md). */
export const DEFAULT_METRICS_ALLOW_IP = ['127.0.0.0/8', '::1/128'] as const;

export function loadManagementConfig(env: Env): ManagementConfig {
  const read = new EnvReader(env);
  const nonceSecret = read.optionalString('DIGEST_NONCE_SECRET');
  // A delivery is cut off at half the lease, so the lease cannot run out under a live send.
  const leaseMs = read.integer('NOTIFY_LEASE_MS', 120_000, { min: 200, max: 3_600_000 });
  const port = read.port('MANAGEMENT_PORT', 8443);
  const config: ManagementConfig = {
    port,
    host: read.string('MANAGEMENT_HOST', '0.0.0.0'),
    dataDir: read.string('DATA_DIR', '.data'),
    databaseUrl: read.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/trackline', [
      'postgres:',
      'postgresql:',
    ])!,
    databaseReadUrl: read.url('DATABASE_READ_URL', undefined, ['postgres:', 'postgresql:']),
    // node-postgres' own default pool size: what every pool had before it was a setting.
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 10, { min: 1, max: 500 }),
    databaseReadPoolSize: read.integer('DATABASE_READ_POOL_SIZE', 10, { min: 1, max: 500 }),
    databaseIngestionPoolSize: read.integer('INGESTION_DATABASE_POOL_SIZE', 10, { min: 1, max: 500 }),
    databasePreparedStatements: read.oneOf('DATABASE_PREPARED_STATEMENTS', ['on', 'off'], 'on') === 'on',
    redis: readRedisSettings(read, {
      commandTimeoutMs: 500,
      connectTimeoutMs: 2_000,
      maxReconnectDelayMs: 5_000,
    }),
    projections: {
      checkIntervalMs: read.integer('PROJECTION_CHECK_INTERVAL_MS', 2_000, { min: 100, max: 600_000 }),
      rebuildLockMs: read.integer('PROJECTION_REBUILD_LOCK_MS', 30_000, { min: 1_000, max: 3_600_000 }),
    },
    readinessTimeoutMs: read.integer('READINESS_TIMEOUT_MS', 1_000, { min: 50, max: 60_000 }),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, { min: 0, max: 600_000 }),
    heapGrowingPercent: read.integer('HEAP_GROWING_PERCENT', DEFAULT_HEAP_GROWING_PERCENT, {
      min: 0,
      max: 400,
    }),
    http: readHttpLimits(read, {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxRequestsPerSocket: 1_000,
    }),
    tls: { certFile: read.optionalString('TLS_CERT'), keyFile: read.optionalString('TLS_KEY') },
    trustProxy: addressList(read, 'TRUST_PROXY', read.list('TRUST_PROXY')),
    metricsAllowIp: addressList(
      read,
      'METRICS_ALLOW_IP',
      orDefault(read.list('METRICS_ALLOW_IP'), DEFAULT_METRICS_ALLOW_IP),
    ),
    rateLimitPerMinute: read.integer('RATE_LIMIT_PER_MINUTE', 600, { min: 0, max: 1_000_000 }),
    digest: {
      realm: read.string('DIGEST_REALM', 'Trackline'),
      nonceSecret: nonceSecret ?? '',
      nonceTtlSeconds: read.integer('DIGEST_NONCE_TTL_SECONDS', 300, { min: 10, max: 3600 }),
    },
    telephonyToken: readTelephonyToken(read),
    greetingRecordNumber: read.string('GREETING_RECORD_NUMBER', '+4722000000'),
    smtpUrl: read.url('SMTP_URL', undefined, ['smtp:', 'smtps:']),
    smtpFrom: read.string('SMTP_FROM', 'Trackline <noreply@trackline.invalid>'),
    smsGatewayUrl: read.url('SMS_GATEWAY_URL', undefined, ['http:', 'https:']),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    customerEvents: {
      blockMs: read.integer('CUSTOMER_EVENTS_BLOCK_MS', 200, { min: 10, max: 900 }),
      batchSize: read.integer('CUSTOMER_EVENTS_BATCH_SIZE', 100, { min: 1, max: 10_000 }),
      reclaimIdleMs: read.integer('CUSTOMER_EVENTS_RECLAIM_IDLE_MS', 30_000, { min: 1_000, max: 3_600_000 }),
      partnerRefreshMs: read.integer('CUSTOMER_EVENTS_PARTNER_REFRESH_MS', 10_000, {
        min: 1_000,
        max: 600_000,
      }),
      retryDelayMs: read.integer('CUSTOMER_EVENTS_RETRY_DELAY_MS', 1_000, { min: 100, max: 60_000 }),
      connectTimeoutMs: read.integer('CUSTOMER_EVENTS_CONNECT_TIMEOUT_MS', 5_000, { min: 50, max: 60_000 }),
      commandMarginMs: read.integer('CUSTOMER_EVENTS_COMMAND_MARGIN_MS', 5_000, { min: 100, max: 60_000 }),
    },
    notifications: {
      maxAttempts: read.integer('NOTIFY_MAX_ATTEMPTS', 8, { min: 1, max: 100 }),
      baseDelayMs: read.integer('NOTIFY_BASE_DELAY_MS', 30_000, { min: 10, max: 3_600_000 }),
      leaseMs,
      pollMs: read.integer('NOTIFY_POLL_MS', 1_000, { min: 10, max: 600_000 }),
      databasePoolSize: read.integer('NOTIFY_DATABASE_POOL_SIZE', 4, { min: 1, max: 100 }),
    },
    webhooks: {
      insecureHosts: read.list('WEBHOOK_INSECURE_HOSTS'),
      // By default 15 s (the Standard Webhooks specification's advice), less under a short lease.
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', Math.min(15_000, Math.floor(leaseMs / 2)), {
        min: 100,
        max: 600_000,
      }),
      maxAttempts: read.integer('WEBHOOK_MAX_ATTEMPTS', 30, { min: 1, max: 100 }),
      baseDelayMs: read.integer('WEBHOOK_BASE_DELAY_MS', 10_000, { min: 10, max: 3_600_000 }),
      concurrency: read.integer('WEBHOOK_CONCURRENCY', 64, { min: 1, max: 1_000 }),
      perEndpoint: read.integer('WEBHOOK_ENDPOINT_CONCURRENCY', 4, { min: 1, max: 100 }),
      // Five days: a weekend's outage and a working day to notice it.
      disableAfterSeconds: read.integer('WEBHOOK_DISABLE_AFTER_SECONDS', 432_000, {
        min: 1,
        max: 31_536_000,
      }),
    },
    conversions: {
      ga4BaseUrl: withoutTrailingSlash(
        read.url('CONVERSIONS_GA4_URL', 'https://www.google-analytics.com', ['http:', 'https:'])!,
      ),
      googleAdsBaseUrl: withoutTrailingSlash(
        read.url('CONVERSIONS_GOOGLE_ADS_URL', 'https://googleads.googleapis.com', ['http:', 'https:'])!,
      ),
      googleAdsApiVersion: read.string('CONVERSIONS_GOOGLE_ADS_API_VERSION', 'v21'),
      oauthTokenUrl: read.url('CONVERSIONS_OAUTH_TOKEN_URL', 'https://oauth2.googleapis.com/token', [
        'http:',
        'https:',
      ])!,
      timeoutMs: read.integer('CONVERSIONS_TIMEOUT_MS', Math.min(15_000, Math.floor(leaseMs / 2)), {
        min: 100,
        max: 600_000,
      }),
      maxAttempts: read.integer('CONVERSIONS_MAX_ATTEMPTS', 12, { min: 1, max: 100 }),
      baseDelayMs: read.integer('CONVERSIONS_BASE_DELAY_MS', 60_000, { min: 10, max: 3_600_000 }),
      batchSize: read.integer('CONVERSIONS_BATCH_SIZE', 100, { min: 1, max: 2_000 }),
      pollMs: read.integer('CONVERSIONS_POLL_MS', 1_000, { min: 10, max: 600_000 }),
      databasePoolSize: read.integer('CONVERSIONS_DATABASE_POOL_SIZE', 2, { min: 1, max: 100 }),
    },
    stt: readSpeechEngine(read, leaseMs),
    transcription: {
      maxAttempts: read.integer('TRANSCRIPTION_MAX_ATTEMPTS', 8, { min: 1, max: 100 }),
      baseDelayMs: read.integer('TRANSCRIPTION_BASE_DELAY_MS', 30_000, { min: 10, max: 3_600_000 }),
      pollMs: read.integer('TRANSCRIPTION_POLL_MS', 1_000, { min: 10, max: 600_000 }),
      databasePoolSize: read.integer('TRANSCRIPTION_DATABASE_POOL_SIZE', 2, { min: 1, max: 100 }),
    },
    reports: {
      scheduleEnabled: read.boolean('REPORTS_SCHEDULE_ENABLED', true),
      catchUpHours: read.integer('REPORTS_CATCH_UP_HOURS', 24, { min: 1, max: 27 * 24 }),
      csvMaxRows: read.integer('REPORTS_CSV_MAX_ROWS', 100_000, { min: 1, max: 1_000_000 }),
      databasePoolSize: read.integer('REPORTS_DATABASE_POOL_SIZE', 1, { min: 1, max: 100 }),
    },
    twilio: {
      authToken: read.string('TWILIO_AUTH_TOKEN', ''),
      accountSid: read.string('TWILIO_ACCOUNT_SID', ''),
      publicUrl: withoutTrailingSlash(
        read.url('MANAGEMENT_PUBLIC_URL', `https://127.0.0.1:${port}`, ['http:', 'https:'])!,
      ),
      recordingHosts: orDefault(read.list('RECORDING_HOSTS'), DEFAULT_RECORDING_HOSTS),
      graceSeconds: read.integer('TWILIO_CALLBACK_GRACE_SECONDS', 300, { min: 1, max: 86_400 }),
      sweepIntervalMs: read.integer('TWILIO_SWEEP_INTERVAL_MS', 30_000, { min: 100, max: 3_600_000 }),
      recordingTimeoutMs: read.integer('TWILIO_RECORDING_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
    },
    carrier: {
      replacementPublicUrl: withoutTrailingSlash(
        read.url('REPLACEMENT_PUBLIC_URL', `http://127.0.0.1:${read.port('REPLACEMENT_PORT', 8080)}`, [
          'http:',
          'https:',
        ])!,
      ),
      timeoutMs: read.integer('CARRIER_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
      rateLimitRetries: read.integer('CARRIER_RATE_LIMIT_RETRIES', 2, { min: 0, max: 10 }),
      retryDelayMs: read.integer('CARRIER_RETRY_DELAY_MS', 1_000, { min: 0, max: 60_000 }),
    },
    dataLifecycle: {
      hourUtc: read.integer('DATA_LIFECYCLE_HOUR_UTC', 3, { min: 0, max: 23 }),
      checkMs: read.integer('DATA_LIFECYCLE_CHECK_MS', 60_000, { min: 1_000, max: 3_600_000 }),
      monthsAhead: read.integer('CDR_PARTITION_MONTHS_AHEAD', 3, { min: 1, max: 24 }),
      cdrChangeRetentionDays: read.integer('CDR_CHANGE_RETENTION_DAYS', 30, { min: 1, max: 3650 }),
      databasePoolSize: read.integer('DATA_LIFECYCLE_DATABASE_POOL_SIZE', 2, { min: 1, max: 100 }),
    },
    poolTelemetry: {
      intervalMs: read.integer('POOL_TELEMETRY_INTERVAL_MS', 60_000, { min: 1_000, max: 3_600_000 }),
      databasePoolSize: read.integer('POOL_TELEMETRY_DATABASE_POOL_SIZE', 2, { min: 1, max: 100 }),
    },
    poolAutoscaling: {
      intervalMs: read.integer('POOL_AUTOSCALING_INTERVAL_MS', 3_600_000, { min: 1_000, max: 86_400_000 }),
      checkMs: read.integer('POOL_AUTOSCALING_CHECK_MS', 60_000, { min: 100, max: 3_600_000 }),
    },
    cli: {
      redisCommandTimeoutMs: read.integer('CLI_REDIS_COMMAND_TIMEOUT_MS', 2_000, { min: 10, max: 60_000 }),
      redisMaxReconnectDelayMs: read.integer('CLI_REDIS_MAX_RECONNECT_DELAY_MS', 500, {
        min: 50,
        max: 60_000,
      }),
    },
  };
  if ((config.tls.certFile === undefined) !== (config.tls.keyFile === undefined)) {
    read.reject('TLS_CERT/TLS_KEY', 'set both or neither');
  }
  if (!/^v\d+$/.test(config.conversions.googleAdsApiVersion))
    read.reject('CONVERSIONS_GOOGLE_ADS_API_VERSION', 'must be "v" and a number (for example v21)');
  if (config.conversions.timeoutMs * 2 > config.notifications.leaseMs) {
    read.reject(
      'CONVERSIONS_TIMEOUT_MS',
      `must be at most half of NOTIFY_LEASE_MS (${config.notifications.leaseMs})`,
    );
  }
  if (config.webhooks.timeoutMs * 2 > config.notifications.leaseMs) {
    read.reject(
      'WEBHOOK_TIMEOUT_MS',
      `must be at most half of NOTIFY_LEASE_MS (${config.notifications.leaseMs})`,
    );
  }
  for (const host of config.twilio.recordingHosts) {
    if (!/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(host))
      read.reject('RECORDING_HOSTS', `${host} is not a host name, *.domain or host:port`);
  }
  if (nonceSecret !== undefined && nonceSecret.length < 32) {
    read.reject('DIGEST_NONCE_SECRET', 'must be at least 32 characters');
  }
  read.done();
  return config;
}

/** So `<base>/telephony/...` is the exact URL the provider signs. */
function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function orDefault(list: string[], fallback: readonly string[]): string[] {
  return list.length > 0 ? list : [...fallback];
}

/** IPs and CIDRs; a bad entry stops the start with a message naming the variable. */
function addressList(read: EnvReader, name: string, entries: string[]): AddressList {
  try {
    return AddressList.parse(entries);
  } catch (error) {
    read.reject(name, (error as Error).message);
    return AddressList.parse([]);
  }
}

/**
 * The speech engine's settings, read only when STT_BASE_URL is set: without it transcription is off
 * for every partner and the other STT_ variables are not read (docs/call-intelligence.md).
 */
function readSpeechEngine(read: EnvReader, leaseMs: number): ManagementConfig['stt'] {
  const baseUrl = read.url('STT_BASE_URL', undefined, ['http:', 'https:']);
  if (baseUrl === undefined) return null;
  const timeoutMs = read.integer('STT_TIMEOUT_MS', Math.min(120_000, Math.floor(leaseMs / 2)), {
    min: 100,
    max: 1_800_000,
  });
  if (timeoutMs * 2 > leaseMs) read.reject('STT_TIMEOUT_MS', 'must be at most half of NOTIFY_LEASE_MS');
  return {
    baseUrl: withoutTrailingSlash(baseUrl),
    apiKey: read.optionalString('STT_API_KEY') ?? null,
    model: read.string('STT_MODEL', 'whisper-1'),
    concurrency: read.integer('STT_CONCURRENCY', 2, { min: 1, max: 64 }),
    timeoutMs,
  };
}
