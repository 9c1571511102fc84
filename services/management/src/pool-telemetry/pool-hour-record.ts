import type { ApiRecord } from '../http/api-response';
import type { PoolTelemetryHour } from './pool-telemetry.store';

/** A share as the API shows shares: four decimals; null when there is nothing to divide by. */
export function shareText(part: number, whole: number): string | null {
  return whole === 0 ? null : (part / whole).toFixed(4);
}

/**
 * One partner-hour as `pool.exhausted` carries it and `GET /number_pools` lists its busiest hour
 * (docs/pool-sizing.md): counts as decimal strings like every count of the API.
 */
export function toPoolHourRecord(hour: PoolTelemetryHour): ApiRecord {
  return {
    hour: hour.hour.toISOString(),
    sessions: String(hour.sessions),
    sessions_per_second: (hour.sessions / 3600).toFixed(6),
    issued: String(hour.issued),
    recycled: String(hour.recycled),
    recycled_share: shareText(hour.recycled, hour.issued),
    peak_leased: String(hour.peakLeased),
    pool_calls: String(hour.poolCalls),
    calls_per_binding: shareText(hour.poolCalls, hour.issued),
  };
}
