import { EnvReader, LOG_LEVELS, type Env, type LogLevel } from '@trackline/platform';

/** Every setting of the management service, read once at start (docs/configuration.md lists them). */
export interface ManagementConfig {
  port: number;
  host: string;
  /** Folder for generated files (the self-signed certificate). */
  dataDir: string;
  databaseUrl: string;
  redis: { url: string; clusterNodes: string[]; keyPrefix: string };
  tls: { certFile?: string; keyFile?: string };
  /** Addresses (IPs or CIDRs) of TLS-terminating proxies whose X-Forwarded-* headers are trusted. */
  trustProxy: string[];
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
}

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
    redis: {
      url: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
      clusterNodes: read.list('REDIS_CLUSTER_NODES'),
      keyPrefix: read.string('REDIS_KEY_PREFIX', ''),
    },
    tls: { certFile: read.optionalString('TLS_CERT'), keyFile: read.optionalString('TLS_KEY') },
    trustProxy: read.list('TRUST_PROXY'),
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
