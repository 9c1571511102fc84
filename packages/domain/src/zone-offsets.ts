// A time zone's offset from UTC at an instant, for the wall-clock rules every call record is
// priced by (time-window.ts). Asking Intl for an instant's local fields costs tens of µs, more than
// the rest of a commission match; offsets change only a few times a year, so what Intl answers is
// kept per zone and quarter hour of UTC and most calls only look it up.

const QUARTER_HOUR_MS = 15 * 60_000;
/** Quarter hours kept per zone; past that the zone's entries are dropped and refilled as asked. */
const MAX_QUARTERS_PER_ZONE = 4_096;

interface ZoneOffsets {
  format: Intl.DateTimeFormat;
  /** Quarter hour (epoch ms ÷ 15 min, floored) → offset in ms, for quarters with one offset throughout. */
  byQuarter: Map<number, number>;
}

const zones = new Map<string, ZoneOffsets>();

/**
 * Local time minus UTC, in ms, at `instantMs` in the IANA zone `timeZone` (which the caller has
 * checked). A quarter hour's offset is kept only when its first and last second agree, so an
 * instant in a quarter hour that holds a change (on the hour in most zones, at odd times in old
 * local mean time) is always asked of Intl itself. This assumes no zone changes its offset and back
 * within one quarter hour, which no zone's rules do.
 */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const zone = zoneOffsets(timeZone);
  const quarter = Math.floor(instantMs / QUARTER_HOUR_MS);
  const kept = zone.byQuarter.get(quarter);
  if (kept !== undefined) return kept;
  const first = quarter * QUARTER_HOUR_MS;
  const atStart = offsetAsked(zone.format, first);
  const atEnd = offsetAsked(zone.format, first + QUARTER_HOUR_MS - 1_000);
  if (atStart !== atEnd) return offsetAsked(zone.format, instantMs);
  if (zone.byQuarter.size >= MAX_QUARTERS_PER_ZONE) zone.byQuarter.clear();
  zone.byQuarter.set(quarter, atStart);
  return atStart;
}

function zoneOffsets(timeZone: string): ZoneOffsets {
  let zone = zones.get(timeZone);
  if (zone === undefined) {
    zone = {
      format: new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
      byQuarter: new Map(),
    };
    zones.set(timeZone, zone);
  }
  return zone;
}

/** The offset Intl gives for the whole second that holds `instantMs` (offsets are whole seconds). */
function offsetAsked(format: Intl.DateTimeFormat, instantMs: number): number {
  const second = Math.floor(instantMs / 1_000) * 1_000;
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let beforeChrist = false;
  for (const part of format.formatToParts(second)) {
    if (part.type === 'era') beforeChrist = part.value === 'BC' || part.value === 'B';
    else if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const year = beforeChrist ? 1 - fields.year : fields.year;
  // Some engines write midnight as hour 24 even with hourCycle h23.
  const local = new Date(0);
  local.setUTCFullYear(year, fields.month - 1, fields.day);
  local.setUTCHours(fields.hour % 24, fields.minute, fields.second, 0);
  return local.getTime() - second;
}
