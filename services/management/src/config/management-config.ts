import { EnvReader, LOG_LEVELS, type Env, type LogLevel } from '@trackline/platform';

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
  redis: { url: string; clusterNodes: string[]; keyPrefix: string };
  tls: { certFile?: string; keyFile?: string };
  /** Addresses (IPs or CIDRs) of TLS-terminating proxies whose X-Forwarded-* headers are trusted. */
  trustProxy: string[];
  /** Addresses (IPs or CIDRs) allowed to read GET /metrics; it names every partner. */
  metricsAllowIp: string[];
  digest: {
    realm: string;
    /** HMAC key for stateless nonces; every replica must share it. */
    nonceSecret: string;
    nonceTtlSeconds: number;
  };
  telephonyToken?: string;
  greetingRecordNumber: string;
  smtpUrl?: string;
  smtpFrom: string;
  smsGatewayUrl?: string;
  logLevel: LogLevel;
  /** The consumer of the replacement service's customer-seen streams (SPEC §3). */
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
  };
  /** The notification outbox worker (SPEC §8). */
  notifications: {
    /** Deliveries tried per row before it is marked dead. */
    maxAttempts: number;
    /** Wait after the first failure; doubles with each further one (capped at an hour). */
    baseDelayMs: number;
    /** How long a claimed row belongs to its worker; after that (a crashed worker) any worker retries it. */
    leaseMs: number;
    /** Pause between claims when the outbox had nothing due. */
    pollMs: number;
  };
  /** The daily data lifecycle job and the monthly partitions of "cdrs" (docs/privacy.md). */
  dataLifecycle: {
    /** UTC hour the daily run is due. */
    hourUtc: number;
    /** How often each replica asks whether the run is due (one replica runs it). */
    checkMs: number;
    /** Months ahead of the current one that must have a partition. */
    monthsAhead: number;
  };
}

/** Loopback only: a scraper elsewhere must be named (docs/configuration.md). */
export const DEFAULT_METRICS_ALLOW_IP = ['127.0.0.0/8', '::1/128'] as const;

export function loadManagementConfig(env: Env): ManagementConfig {
  const read = new EnvReader(env);
  const nonceSecret = read.optionalString('DIGEST_NONCE_SECRET');
  const config: ManagementConfig = {
    port: read.port('MANAGEMENT_PORT', 8443),
    host: read.string('MANAGEMENT_HOST', '0.0.0.0'),
    dataDir: read.string('DATA_DIR', '.data'),
    databaseUrl: read.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/trackline', [
      'postgres:',
      'postgresql:',
    ])!,
    databaseReadUrl: read.url('DATABASE_READ_URL', undefined, ['postgres:', 'postgresql:']),
    redis: {
      url: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
      clusterNodes: read.list('REDIS_CLUSTER_NODES'),
      keyPrefix: read.string('REDIS_KEY_PREFIX', ''),
    },
    tls: { certFile: read.optionalString('TLS_CERT'), keyFile: read.optionalString('TLS_KEY') },
    trustProxy: read.list('TRUST_PROXY'),
    metricsAllowIp: orDefault(read.list('METRICS_ALLOW_IP'), DEFAULT_METRICS_ALLOW_IP),
    digest: {
      realm: read.string('DIGEST_REALM', 'Trackline'),
      nonceSecret: nonceSecret ?? '',
      nonceTtlSeconds: read.integer('DIGEST_NONCE_TTL_SECONDS', 300, { min: 10, max: 3600 }),
    },
    telephonyToken: read.optionalString('TELEPHONY_TOKEN'),
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
    },
    notifications: {
      maxAttempts: read.integer('NOTIFY_MAX_ATTEMPTS', 8, { min: 1, max: 100 }),
      baseDelayMs: read.integer('NOTIFY_BASE_DELAY_MS', 30_000, { min: 10, max: 3_600_000 }),
      // A delivery is cut off at half the lease, so the lease cannot run out under a live send.
      leaseMs: read.integer('NOTIFY_LEASE_MS', 120_000, { min: 200, max: 3_600_000 }),
      pollMs: read.integer('NOTIFY_POLL_MS', 1_000, { min: 10, max: 600_000 }),
    },
    dataLifecycle: {
      hourUtc: read.integer('DATA_LIFECYCLE_HOUR_UTC', 3, { min: 0, max: 23 }),
      checkMs: read.integer('DATA_LIFECYCLE_CHECK_MS', 60_000, { min: 1_000, max: 3_600_000 }),
      monthsAhead: read.integer('CDR_PARTITION_MONTHS_AHEAD', 3, { min: 1, max: 24 }),
    },
  };
  if ((config.tls.certFile === undefined) !== (config.tls.keyFile === undefined)) {
    read.reject('TLS_CERT/TLS_KEY', 'set both or neither');
  }
  if (nonceSecret !== undefined && nonceSecret.length < 32) {
    read.reject('DIGEST_NONCE_SECRET', 'must be at least 32 characters');
  }
  read.done();
  return config;
}

function orDefault(list: string[], fallback: readonly string[]): string[] {
  return list.length > 0 ? list : [...fallback];
}
