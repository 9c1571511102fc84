import fc from 'fast-check';
import { DateTime } from 'luxon';
import { localClock, WEEKDAYS } from './time-window';
import { zoneOffsetMs } from './zone-offsets';

// Zones with summer time on either hemisphere, half- and quarter-hour offsets, a half-hour summer
// change (Lord Howe), and local mean times of odd seconds (Monrovia until 1972, Amsterdam until 1937).
const ZONES = [
  'UTC',
  'Europe/Oslo',
  'America/New_York',
  'America/St_Johns',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Africa/Monrovia',
  'Europe/Amsterdam',
  'America/Sao_Paulo',
];

function luxonOffsetMs(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).offset * 60_000;
}

function luxonClock(ms: number, zone: string) {
  const local = DateTime.fromMillis(ms, { zone });
  return {
    weekday: WEEKDAYS[local.weekday - 1],
    minuteOfDay: local.hour * 60 + local.minute,
    date: local.toISODate(),
  };
}

/** The instants (to the second) where luxon sees the zone's offset change within the year. */
function changesIn(zone: string, year: number): number[] {
  const changes: number[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let at = Date.UTC(year, 0, 1);
  let offset = luxonOffsetMs(at, zone);
  for (let next = at + 3_600_000; next <= end; at = next, next += 3_600_000) {
    const nextOffset = luxonOffsetMs(next, zone);
    if (nextOffset === offset) continue;
    let [low, high] = [at, next]; // offset(low) = offset, offset(high) ≠ offset
    while (high - low > 1_000) {
      const middle = low + Math.floor((high - low) / 2_000) * 1_000;
      if (luxonOffsetMs(middle, zone) === offset) low = middle;
      else high = middle;
    }
    changes.push(high);
    offset = nextOffset;
  }
  return changes;
}

describe('zoneOffsetMs', () => {
  it.each(ZONES)('agrees with luxon around every change of %s', (zone) => {
    const years = [1920, 1936, 1972, 2010, 2026];
    const changes = years.flatMap((year) => changesIn(zone, year));
    if (zone !== 'UTC' && zone !== 'Asia/Kathmandu') expect(changes.length).toBeGreaterThan(0);
    for (const change of changes)
      for (const delta of [
        -900_001, -900_000, -60_000, -1_001, -1_000, -1, 0, 1, 999, 1_000, 60_000, 900_000,
      ])
        expect([change + delta, zoneOffsetMs(change + delta, zone)]).toEqual([
          change + delta,
          luxonOffsetMs(change + delta, zone),
        ]);
  });

  it('agrees with luxon for any instant from 1850 to 2150', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2150, 0, 1) }),
        (zone, ms) => {
          expect(zoneOffsetMs(ms, zone)).toBe(luxonOffsetMs(ms, zone));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('answers a quarter hour it kept as Intl did, and one holding a change at each instant', () => {
    const change = Date.UTC(2026, 2, 29, 1, 0, 0); // Oslo: +01:00 until 01:00 UTC, +02:00 from then
    // Both halves of the quarter hour that starts at the change, asked in either order.
    expect(zoneOffsetMs(change + 60_000, 'Europe/Oslo')).toBe(7_200_000);
    expect(zoneOffsetMs(change, 'Europe/Oslo')).toBe(7_200_000);
    expect(zoneOffsetMs(change - 1, 'Europe/Oslo')).toBe(3_600_000);
    // Lord Howe's summer time is half an hour ahead of its standard time.
    const lordHowe = changesIn('Australia/Lord_Howe', 2026)[0]!;
    expect(
      zoneOffsetMs(lordHowe - 1, 'Australia/Lord_Howe') - zoneOffsetMs(lordHowe, 'Australia/Lord_Howe'),
    ).toBe(1_800_000);
  });
});

describe('localClock against luxon', () => {
  it('gives the weekday, minute of the day and date luxon gives, in any zone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }),
        (zone, ms) => {
          expect(localClock(new Date(ms), zone)).toEqual(luxonClock(ms, zone));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('writes the years before 0 and after 9999 as luxon does', () => {
    for (const ms of [Date.UTC(10_000, 0, 1, 12), -62_198_755_200_000 - 86_400_000 * 400])
      expect(localClock(new Date(ms), 'Europe/Oslo')).toEqual(luxonClock(ms, 'Europe/Oslo'));
  });
});
