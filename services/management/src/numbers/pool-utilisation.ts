import type { PoolTelemetryHour } from '../pool-telemetry/pool-telemetry.store';

/** The advisor's window: the last 30 days, hour by hour. */
export const UTILISATION_DAYS = 30;

/** The hours of one UTC day, added up (the peak is the day's highest). */
export interface PoolDay {
  /** YYYY-MM-DD, UTC. */
  date: string;
  sessions: number;
  issued: number;
  recycled: number;
  peakLeased: number;
  poolCalls: number;
}

export interface PoolUtilisation {
  from: Date;
  to: Date;
  totals: Omit<PoolDay, 'date'>;
  /** The hour with the most new sessions (the earliest of equals); null without any. */
  busiestHour: PoolTelemetryHour | null;
  days: PoolDay[];
}

/** Sums a window's stored hours by UTC day and finds its busiest hour (docs/pool-sizing.md). */
export function summariseUtilisation(
  hours: readonly PoolTelemetryHour[],
  from: Date,
  to: Date,
): PoolUtilisation {
  const days = new Map<string, PoolDay>();
  const totals = { sessions: 0, issued: 0, recycled: 0, peakLeased: 0, poolCalls: 0 };
  let busiestHour: PoolTelemetryHour | null = null;
  for (const hour of hours) {
    const date = hour.hour.toISOString().slice(0, 10);
    const day = days.get(date) ?? { date, sessions: 0, issued: 0, recycled: 0, peakLeased: 0, poolCalls: 0 };
    for (const sum of [day, totals]) {
      sum.sessions += hour.sessions;
      sum.issued += hour.issued;
      sum.recycled += hour.recycled;
      sum.poolCalls += hour.poolCalls;
      sum.peakLeased = Math.max(sum.peakLeased, hour.peakLeased);
    }
    days.set(date, day);
    if (hour.sessions > 0 && (busiestHour === null || hour.sessions > busiestHour.sessions))
      busiestHour = hour;
  }
  return {
    from,
    to,
    totals,
    busiestHour,
    days: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
  };
}
