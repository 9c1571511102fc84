import {
  encodeProjectionGeneration,
  PROJECTION_VERSION,
  projectionKeys,
  type PartnerConfig,
  type PartnerProjection,
  type SourceRoute,
} from '@trackline/contracts';
import { createLogger, type Logger, type RedisConnection } from '@trackline/platform';
import type { ReplacementConfig } from '../config/replacement-config';

export const silentLogger: Logger = createLogger({ service: 'replacement-test', level: 'silent' });

export function testConfig(keyPrefix: string, overrides: Partial<ReplacementConfig> = {}): ReplacementConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    redis: {
      url: 'redis://127.0.0.1:6379',
      clusterNodes: [],
      keyPrefix,
      commandTimeoutMs: 2000,
      connectTimeoutMs: 2000,
      maxReconnectDelayMs: 200,
    },
    storeDeadlineMs: 5000,
    // Tests change partner settings between requests; they must be seen at once.
    partnerConfigCacheMs: 0,
    telephonyToken: 'switch-token',
    shutdownTimeoutMs: 10_000,
    logLevel: 'silent',
    http: {
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxRequestsPerSocket: 0,
    },
    twilio: {
      authToken: 'twilio-test-token',
      publicUrl: 'https://calls.trackline.test',
      managementPublicUrl: 'https://manage.trackline.test',
      ringTimeoutSeconds: 20,
      greetingLinkSeconds: 3600,
      voicemailMaxSeconds: 120,
    },
    ...overrides,
  };
}

export function partnerConfig(advId: string, overrides: Partial<PartnerConfig> = {}): PartnerConfig {
  return {
    advId,
    signingSecret: `secret-of-${advId}`,
    country: 'NO',
    timeZone: 'Europe/Oslo',
    sessionTtlSeconds: 1800,
    holdBackSeconds: 600,
    onExhausted: 'recycle',
    fallbackNumber: null,
    ...overrides,
  };
}

/** `count` pool numbers +479100NNNN starting at `first`. */
export function poolNumbers(count: number, first = 1): string[] {
  return Array.from({ length: count }, (_, i) => `+479100${String(first + i).padStart(4, '0')}`);
}

export function sourceRoute(overrides: Partial<SourceRoute> = {}): SourceRoute {
  return {
    sourceId: '101',
    customerId: '7',
    destnr: '+4790000001',
    phonenr: '+4722334455',
    altNumbers: [],
    vmDivertAll: false,
    vmDivertBusy: false,
    vmDivertNoanswer: false,
    vmGreetingId: null,
    closed: false,
    ...overrides,
  };
}

export function projection(
  config: PartnerConfig,
  pool: string[],
  sources: SourceRoute[] = [],
): PartnerProjection {
  return { config, poolNumbers: pool, sources };
}

let counter = 0;
/** A partner name unique within the test process. */
export function uniqueAdvId(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}`;
}

/** Writes the generation marker management writes after a full rebuild (docs/redis-keys.md). */
export async function markProjectionsComplete(redis: RedisConnection, keyPrefix: string): Promise<void> {
  const generation = { version: PROJECTION_VERSION, id: 'test', builtAt: new Date().toISOString() };
  await redis.set(projectionKeys(keyPrefix).generation, encodeProjectionGeneration(generation));
}
