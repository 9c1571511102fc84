import fc from 'fast-check';
import { ValidationError } from './errors';
import {
  MINUTES_PER_DAY,
  WEEKDAYS,
  findOverlap,
  formatClockTime,
  isInWindow,
  isValidTimeZone,
  localClock,
  parseClockTime,
  parseLocalDate,
  parseTimeWindow,
  parseWeekdays,
  renderTimeWindow,
  windowsOverlap,
  zonedDayStart,
} from './time-window';
import type { TimeWindow, Weekday } from './time-window';

const OSLO = 'Europe/Oslo';
const at = (iso: string): Date => new Date(iso);
const win = (weekdays: Weekday[], from: string, to: string): TimeWindow => ({
  weekdays,
  fromMinute: parseClockTime('from_time', from, 'from'),
  toMinute: parseClockTime('to_time', to, 'to'),
});

const weekdaysArb = fc.subarray([...WEEKDAYS], { minLength: 1 });
const windowArb: fc.Arbitrary<TimeWindow> = fc
  .tuple(
    weekdaysArb,
    fc.integer({ min: 0, max: MINUTES_PER_DAY - 1 }),
    fc.integer({ min: 1, max: MINUTES_PER_DAY }),
  )
  .map(([weekdays, a, b]) => ({ weekdays, fromMinute: a, toMinute: Math.max(a + 1, b) }));
// 2020–2035, whole seconds: covers many DST transitions in both directions.
const instantArb = fc
  .integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2035, 11, 31) / 1000 })
  .map((s) => new Date(s * 1000));

describe('parseClockTime', () => {
  it.each([
    ['00:00', 'from', 0],
    ['00:00', 'to', 0],
    ['08:30', 'from', 510],
    ['23:59', 'to', 1439],
    ['24:00', 'to', 1440],
  ] as const)('reads %s as %s time %i', (value, role, minutes) => {
    expect(parseClockTime('from_time', value, role)).toBe(minutes);
  });

  it('accepts 24:00 only as an end time', () => {
    expect(() => parseClockTime('from_time', '24:00', 'from')).toThrow(
      new ValidationError('from_time', 'must be HH:MM from 00:00 to 23:59'),
    );
  });

  it.each([
    ['8:30'],
    ['08:3'],
    ['0830'],
    ['08:30:00'],
    ['24:01'],
    ['25:00'],
    ['12:60'],
    [' 08:30'],
    ['08.30'],
    [''],
    [510],
    [null],
    [undefined],
  ])('rejects %p', (value) => {
    expect(() => parseClockTime('to_time', value, 'to')).toThrow(
      new ValidationError('to_time', 'must be HH:MM from 00:00 to 24:00'),
    );
  });

  it('round-trips with formatClockTime for every minute', () => {
    for (let m = 0; m <= MINUTES_PER_DAY; m++) {
      expect(parseClockTime('t', formatClockTime(m), 'to')).toBe(m);
    }
  });
});

describe('formatClockTime', () => {
  it('pads hours and minutes', () => {
    expect(formatClockTime(0)).toBe('00:00');
    expect(formatClockTime(65)).toBe('01:05');
    expect(formatClockTime(1440)).toBe('24:00');
  });

  it.each([[-1], [1441], [1.5], [Number.NaN]])('refuses %p', (m) => {
    expect(() => formatClockTime(m)).toThrow(RangeError);
  });
});

describe('parseWeekdays', () => {
  it('reads days in the order sent, with optional spaces', () => {
    expect(parseWeekdays('weekdays', 'mon')).toEqual(['mon']);
    expect(parseWeekdays('weekdays', 'sat, sun ,mon')).toEqual(['sat', 'sun', 'mon']);
    expect(parseWeekdays('weekdays', WEEKDAYS.join(','))).toEqual([...WEEKDAYS]);
  });

  it('rejects a repeated day', () => {
    expect(() => parseWeekdays('weekdays', 'mon,tue,mon')).toThrow(
      new ValidationError('weekdays', 'must not repeat mon'),
    );
  });

  it.each([[''], ['Mon'], ['monday'], ['mon,'], ['mon,,tue'], ['mon;tue'], ['xyz'], [['mon']], [null], [1]])(
    'rejects %p',
    (value) => {
      expect(() => parseWeekdays('weekdays', value)).toThrow(
        new ValidationError('weekdays', 'must be a comma-separated list of mon..sun'),
      );
    },
  );
});

describe('parseTimeWindow', () => {
  it('builds a window and renders it back', () => {
    const window = parseTimeWindow('alt_numbers[0]', {
      weekdays: 'mon,fri',
      from_time: '17:00',
      to_time: '24:00',
    });
    expect(window).toEqual({ weekdays: ['mon', 'fri'], fromMinute: 1020, toMinute: 1440 });
    expect(renderTimeWindow(window)).toEqual({ weekdays: 'mon,fri', from_time: '17:00', to_time: '24:00' });
  });

  it('names the broken part', () => {
    const ok = { weekdays: 'mon', from_time: '08:00', to_time: '16:00' };
    expect(() => parseTimeWindow('alt_numbers[2]', { ...ok, weekdays: 'funday' })).toThrow(
      expect.objectContaining({ field: 'alt_numbers[2].weekdays' }),
    );
    expect(() => parseTimeWindow('alt_numbers[2]', { ...ok, from_time: '24:00' })).toThrow(
      expect.objectContaining({ field: 'alt_numbers[2].from_time' }),
    );
    expect(() => parseTimeWindow('alt_numbers[2]', { ...ok, to_time: undefined })).toThrow(
      expect.objectContaining({ field: 'alt_numbers[2].to_time' }),
    );
  });

  it.each([
    ['08:00', '08:00'],
    ['16:00', '08:00'],
    ['00:00', '00:00'],
  ])('rejects from %s to %s', (from, to) => {
    expect(() => parseTimeWindow('c[0]', { weekdays: 'mon', from_time: from, to_time: to })).toThrow(
      new ValidationError('c[0].to_time', 'must be after from_time'),
    );
  });

  it('accepts a one-minute window', () => {
    expect(parseTimeWindow('c', { weekdays: 'sun', from_time: '23:59', to_time: '24:00' })).toEqual({
      weekdays: ['sun'],
      fromMinute: 1439,
      toMinute: 1440,
    });
  });
});

describe('windowsOverlap and findOverlap', () => {
  it('needs a shared weekday', () => {
    expect(windowsOverlap(win(['mon'], '08:00', '16:00'), win(['tue'], '08:00', '16:00'))).toBe(false);
    expect(windowsOverlap(win(['mon', 'wed'], '08:00', '16:00'), win(['tue', 'wed'], '08:00', '16:00'))).toBe(
      true,
    );
  });

  it('treats ranges as half-open, so touching windows do not overlap', () => {
    expect(windowsOverlap(win(['mon'], '08:00', '12:00'), win(['mon'], '12:00', '16:00'))).toBe(false);
    expect(windowsOverlap(win(['mon'], '08:00', '12:01'), win(['mon'], '12:00', '16:00'))).toBe(true);
    expect(windowsOverlap(win(['mon'], '00:00', '24:00'), win(['mon'], '23:59', '24:00'))).toBe(true);
    expect(windowsOverlap(win(['mon'], '10:00', '11:00'), win(['mon'], '08:00', '16:00'))).toBe(true);
  });

  it('reports the first pair by the later index', () => {
    const windows = [
      win(['mon'], '08:00', '12:00'),
      win(['tue'], '08:00', '12:00'),
      win(['tue'], '11:00', '13:00'),
      win(['mon'], '09:00', '10:00'),
    ];
    expect(findOverlap(windows)).toEqual([1, 2]);
    expect(findOverlap([windows[0]!, windows[1]!, windows[3]!])).toEqual([0, 2]);
    expect(findOverlap([windows[0]!, windows[1]!])).toBeNull();
    expect(findOverlap([])).toBeNull();
  });

  it('overlap is symmetric', () => {
    fc.assert(fc.property(windowArb, windowArb, (a, b) => windowsOverlap(a, b) === windowsOverlap(b, a)));
  });

  it('overlap means some weekday minute lies in both windows', () => {
    fc.assert(
      fc.property(windowArb, windowArb, (a, b) => {
        const shared = a.weekdays.some((d) => b.weekdays.includes(d));
        let minuteInBoth = false;
        for (let m = 0; m < MINUTES_PER_DAY && !minuteInBoth; m++) {
          minuteInBoth = m >= a.fromMinute && m < a.toMinute && m >= b.fromMinute && m < b.toMinute;
        }
        expect(windowsOverlap(a, b)).toBe(shared && minuteInBoth);
      }),
    );
  });

  it('findOverlap is null exactly when no pair overlaps', () => {
    fc.assert(
      fc.property(fc.array(windowArb, { maxLength: 6 }), (windows) => {
        const found = findOverlap(windows);
        const anyPair = windows.some((a, i) => windows.some((b, j) => i < j && windowsOverlap(a, b)));
        expect(found !== null).toBe(anyPair);
        if (found !== null) {
          expect(found[0]).toBeLessThan(found[1]);
          expect(windowsOverlap(windows[found[0]]!, windows[found[1]]!)).toBe(true);
        }
      }),
    );
  });
});

describe('localClock', () => {
  it('reads the wall clock in the zone', () => {
    // 2026-06-15 is a Monday; Oslo is UTC+2 in summer.
    expect(localClock(at('2026-06-15T06:30:00Z'), OSLO)).toEqual({
      weekday: 'mon',
      minuteOfDay: 510,
      date: '2026-06-15',
    });
    expect(localClock(at('2026-06-14T22:30:00Z'), OSLO)).toEqual({
      weekday: 'mon',
      minuteOfDay: 30,
      date: '2026-06-15',
    });
    expect(localClock(at('2026-06-14T22:30:00Z'), 'UTC')).toEqual({
      weekday: 'sun',
      minuteOfDay: 1350,
      date: '2026-06-14',
    });
    // Winter: UTC+1.
    expect(localClock(at('2026-01-05T07:00:59Z'), OSLO)).toEqual({
      weekday: 'mon',
      minuteOfDay: 480,
      date: '2026-01-05',
    });
  });

  it('skips 02:00–02:59 on the spring change day (2026-03-29)', () => {
    expect(localClock(at('2026-03-29T00:59:59Z'), OSLO)).toEqual({
      weekday: 'sun',
      minuteOfDay: 119,
      date: '2026-03-29',
    });
    expect(localClock(at('2026-03-29T01:00:00Z'), OSLO)).toEqual({
      weekday: 'sun',
      minuteOfDay: 180,
      date: '2026-03-29',
    });
  });

  it('repeats 02:00–02:59 on the autumn change day (2026-10-25)', () => {
    expect(localClock(at('2026-10-25T00:30:00Z'), OSLO).minuteOfDay).toBe(150);
    expect(localClock(at('2026-10-25T01:30:00Z'), OSLO).minuteOfDay).toBe(150);
    expect(localClock(at('2026-10-25T02:00:00Z'), OSLO).minuteOfDay).toBe(180);
  });

  it('agrees with Intl for any instant in Oslo', () => {
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone: OSLO,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    fc.assert(
      fc.property(instantArb, (instant) => {
        const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
        const clock = localClock(instant, OSLO);
        expect(clock.weekday).toBe(parts.weekday!.toLowerCase());
        expect(clock.minuteOfDay).toBe(Number(parts.hour) * 60 + Number(parts.minute));
        expect(clock.date).toBe(`${parts.year}-${parts.month}-${parts.day}`);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an unknown zone or an invalid instant', () => {
    expect(() => localClock(at('2026-01-01T00:00:00Z'), 'Mars/Base')).toThrow(RangeError);
    expect(() => localClock(new Date(Number.NaN), OSLO)).toThrow(RangeError);
  });
});

describe('isInWindow', () => {
  const weekdayDaytime = win(['mon', 'tue', 'wed', 'thu', 'fri'], '08:00', '16:00');

  it('includes the first minute and excludes the end minute', () => {
    // Monday 2026-01-05, Oslo UTC+1.
    expect(isInWindow(weekdayDaytime, at('2026-01-05T06:59:59Z'), OSLO)).toBe(false);
    expect(isInWindow(weekdayDaytime, at('2026-01-05T07:00:00Z'), OSLO)).toBe(true);
    expect(isInWindow(weekdayDaytime, at('2026-01-05T14:59:59Z'), OSLO)).toBe(true);
    expect(isInWindow(weekdayDaytime, at('2026-01-05T15:00:00Z'), OSLO)).toBe(false);
  });

  it('checks the local weekday, not the UTC one', () => {
    const mondayEarly = win(['mon'], '00:00', '01:00');
    // Sunday 23:30 UTC is Monday 00:30 in Oslo (winter).
    expect(isInWindow(mondayEarly, at('2026-01-04T23:30:00Z'), OSLO)).toBe(true);
    expect(isInWindow(mondayEarly, at('2026-01-04T23:30:00Z'), 'UTC')).toBe(false);
    expect(isInWindow(weekdayDaytime, at('2026-01-10T10:00:00Z'), OSLO)).toBe(false); // Saturday
  });

  it('lets a window ending at 24:00 run to local midnight', () => {
    const evening = win(['sun'], '17:00', '24:00');
    expect(isInWindow(evening, at('2026-01-04T22:59:59Z'), OSLO)).toBe(true);
    expect(isInWindow(evening, at('2026-01-04T23:00:00Z'), OSLO)).toBe(false);
  });

  it('never matches the skipped hour on the spring change day', () => {
    const skipped = win(['sun'], '02:00', '03:00');
    const spanning = win(['sun'], '01:30', '03:30');
    const dayStart = zonedDayStart('2026-03-29', OSLO).getTime();
    let spanningMinutes = 0;
    for (let t = dayStart; t < dayStart + 23 * 3600_000; t += 60_000) {
      expect(isInWindow(skipped, new Date(t), OSLO)).toBe(false);
      if (isInWindow(spanning, new Date(t), OSLO)) spanningMinutes++;
    }
    // 01:30–02:00 and 03:00–03:30 exist: one real hour instead of two.
    expect(spanningMinutes).toBe(60);
    expect(isInWindow(spanning, at('2026-03-29T00:59:00Z'), OSLO)).toBe(true); // 01:59 CET
    expect(isInWindow(spanning, at('2026-03-29T01:00:00Z'), OSLO)).toBe(true); // 03:00 CEST
  });

  it('matches the repeated hour twice on the autumn change day', () => {
    const repeated = win(['sun'], '02:30', '02:31');
    expect(isInWindow(repeated, at('2026-10-25T00:30:00Z'), OSLO)).toBe(true); // 02:30 CEST
    expect(isInWindow(repeated, at('2026-10-25T01:30:00Z'), OSLO)).toBe(true); // 02:30 CET
    expect(isInWindow(repeated, at('2026-10-25T01:00:00Z'), OSLO)).toBe(false); // 02:00 CET
    const dayStart = zonedDayStart('2026-10-25', OSLO).getTime();
    let minutes = 0;
    for (let t = dayStart; t < dayStart + 25 * 3600_000; t += 60_000) {
      if (isInWindow(win(['sun'], '02:00', '03:00'), new Date(t), OSLO)) minutes++;
    }
    expect(minutes).toBe(120);
  });

  it('a window and its complement on the same day never both match, and one always does', () => {
    fc.assert(
      fc.property(
        windowArb,
        instantArb,
        fc.constantFrom('Europe/Oslo', 'America/New_York', 'Australia/Lord_Howe', 'UTC'),
        (w, instant, tz) => {
          const before: TimeWindow = { ...w, fromMinute: 0, toMinute: w.fromMinute };
          const after: TimeWindow = { ...w, fromMinute: w.toMinute, toMinute: MINUTES_PER_DAY };
          const hits = [w, before, after].filter((x) => isInWindow(x, instant, tz)).length;
          const onListedDay = w.weekdays.includes(localClock(instant, tz).weekday);
          expect(hits).toBe(onListedDay ? 1 : 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees with UTC date arithmetic when the zone is UTC', () => {
    fc.assert(
      fc.property(windowArb, instantArb, (w, instant) => {
        const day = WEEKDAYS[(instant.getUTCDay() + 6) % 7]!;
        const minute = instant.getUTCHours() * 60 + instant.getUTCMinutes();
        const expected = w.weekdays.includes(day) && minute >= w.fromMinute && minute < w.toMinute;
        expect(isInWindow(w, instant, 'UTC')).toBe(expected);
      }),
    );
  });
});

describe('isValidTimeZone', () => {
  it.each([['Europe/Oslo'], ['UTC'], ['America/New_York'], ['Asia/Kolkata']])('accepts %s', (tz) => {
    expect(isValidTimeZone(tz)).toBe(true);
  });

  it.each([['Mars/Base'], [''], ['UTC+1'], ['local'], ['Europe/Osl']])('rejects %p', (tz) => {
    expect(isValidTimeZone(tz)).toBe(false);
  });
});

describe('zonedDayStart', () => {
  it('is local midnight in winter and summer', () => {
    expect(zonedDayStart('2026-01-15', OSLO).toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(zonedDayStart('2026-07-15', OSLO).toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(zonedDayStart('2026-07-15', 'UTC').toISOString()).toBe('2026-07-15T00:00:00.000Z');
  });

  it('gives 23- and 25-hour days on the Oslo change days', () => {
    const hours = (from: string, to: string) =>
      (zonedDayStart(to, OSLO).getTime() - zonedDayStart(from, OSLO).getTime()) / 3600_000;
    expect(zonedDayStart('2026-03-29', OSLO).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(hours('2026-03-29', '2026-03-30')).toBe(23);
    expect(zonedDayStart('2026-10-25', OSLO).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(hours('2026-10-25', '2026-10-26')).toBe(25);
    expect(hours('2026-10-26', '2026-10-27')).toBe(24);
  });

  it('starts at the first existing instant where a zone skips midnight', () => {
    // Chile moved clocks from 00:00 to 01:00 on 2024-09-08.
    expect(zonedDayStart('2024-09-08', 'America/Santiago').toISOString()).toBe('2024-09-08T04:00:00.000Z');
  });

  it('is the first instant whose local date is that day', () => {
    fc.assert(
      fc.property(instantArb, fc.constantFrom(OSLO, 'America/New_York', 'Asia/Kolkata'), (instant, tz) => {
        const { date } = localClock(instant, tz);
        const start = zonedDayStart(date, tz);
        expect(start.getTime()).toBeLessThanOrEqual(instant.getTime());
        expect(localClock(start, tz).date).toBe(date);
        expect(localClock(new Date(start.getTime() - 1000), tz).date).not.toBe(date);
      }),
    );
  });

  it('refuses bad input', () => {
    expect(() => zonedDayStart('2026-02-30', OSLO)).toThrow(RangeError);
    expect(() => zonedDayStart('2026-1-5', OSLO)).toThrow(RangeError);
    expect(() => zonedDayStart('2026-01-05', 'Nowhere/City')).toThrow(RangeError);
  });
});

describe('parseLocalDate', () => {
  it('accepts a real calendar date', () => {
    expect(parseLocalDate('from_date', '2024-02-29')).toBe('2024-02-29');
  });

  it.each([
    ['2026-02-29'],
    ['2026-13-01'],
    ['2026-1-5'],
    ['20260105'],
    ['2026-01-05T00:00'],
    [''],
    [20260105],
    [null],
  ])('rejects %p', (value) => {
    expect(() => parseLocalDate('from_date', value)).toThrow(
      new ValidationError('from_date', 'must be a date YYYY-MM-DD'),
    );
  });

  it.each([['0000-01-01'], ['1899-12-31']])('rejects %p: no store of ours holds that year', (value) => {
    expect(() => parseLocalDate('from_date', value)).toThrow(
      new ValidationError('from_date', 'must have a year from 1900 to 9999'),
    );
  });
});
