import fc from 'fast-check';
import { DateTime } from 'luxon';
import { ValidationError } from './errors';
import { formatUtcTimestamp, parseCallTime } from './timestamps';

describe('formatUtcTimestamp', () => {
  it('renders UTC with a space and no fraction', () => {
    expect(formatUtcTimestamp(new Date('2026-03-29T01:02:03.999Z'))).toBe('2026-03-29 01:02:03');
    expect(formatUtcTimestamp(new Date('2026-12-31T23:59:59+02:00'))).toBe('2026-12-31 21:59:59');
  });

  it('refuses an invalid date', () => {
    expect(() => formatUtcTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('parseCallTime', () => {
  it.each([
    ['2026-03-29 01:02:03', '2026-03-29T01:02:03.000Z'],
    ['2026-03-29T03:02:03+02:00', '2026-03-29T01:02:03.000Z'],
    ['2026-03-29T01:02:03Z', '2026-03-29T01:02:03.000Z'],
    ['2026-03-29T01:02:03.250Z', '2026-03-29T01:02:03.250Z'],
    ['2026-03-29T02:02-0100', '2026-03-29T03:02:00.000Z'],
    ['2024-02-29 12:00:00', '2024-02-29T12:00:00.000Z'],
  ])('reads %p', (value, iso) => {
    expect(parseCallTime('start', value).toISOString()).toBe(iso);
  });

  it.each([
    ['2026-03-29T01:02:03'],
    ['2026-03-29 01:02'],
    ['2026-03-29'],
    ['2026-02-29 12:00:00'],
    ['2026-03-29 24:00:00'],
    ['2026-03-29T24:00:00Z'],
    ['2026-03-29 12:60:00'],
    ['2026-13-01 00:00:00'],
    ['29.03.2026 01:02:03'],
    ['1774746123'],
    [1774746123],
    [''],
    [null],
  ])('rejects %p', (value) => {
    expect(() => parseCallTime('start', value)).toThrow(
      new ValidationError('start', 'must be "YYYY-MM-DD HH:MM:SS" (UTC) or ISO 8601 with an offset'),
    );
  });

  it.each([['0000-01-01 00:00:00'], ['1899-12-31 23:59:59'], ['0000-01-01T00:00:00Z']])(
    'rejects %p: no store of ours holds that year',
    (value) => {
      expect(() => parseCallTime('start', value)).toThrow(
        new ValidationError('start', 'must have a year from 1900 to 9999'),
      );
    },
  );

  it('round-trips formatUtcTimestamp to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799 }), (seconds) => {
        const d = new Date(seconds * 1000);
        expect(parseCallTime('at', formatUtcTimestamp(d)).getTime()).toBe(d.getTime());
      }),
    );
  });

  it('reads every time as luxon reads it, and refuses what luxon refuses', () => {
    // luxon's readers of the two forms, with the same patterns in front: what parseCallTime was built on.
    const byLuxon = (value: string): number | 'refused' => {
      const parsed = / /.test(value)
        ? DateTime.fromFormat(value, 'yyyy-MM-dd HH:mm:ss', { zone: 'UTC' })
        : DateTime.fromISO(value, { setZone: true });
      return parsed.isValid ? parsed.toMillis() : 'refused';
    };
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const timeText = fc
      .tuple(
        fc.integer({ min: 1900, max: 9999 }),
        two(13),
        two(32),
        two(23),
        two(59),
        fc.option(two(59), { nil: undefined }),
        fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
        fc.constantFrom('Z', '+', '-', ' '),
        two(23),
        two(59),
        fc.boolean(),
      )
      .map(([year, month, day, hour, minute, second, fraction, zone, offHours, offMinutes, colon]) => {
        const date = `${year}-${month}-${day}`;
        if (zone === ' ') return `${date} ${hour}:${minute}:${second ?? '00'}`;
        const clock = `${hour}:${minute}${second === undefined ? '' : `:${second}${fraction === undefined ? '' : `.${fraction}`}`}`;
        return `${date}T${clock}${zone === 'Z' ? 'Z' : `${zone}${offHours}${colon ? ':' : ''}${offMinutes}`}`;
      });
    fc.assert(
      fc.property(timeText, (value) => {
        let ours: number | 'refused';
        try {
          ours = parseCallTime('start', value).getTime();
        } catch {
          ours = 'refused';
        }
        expect([value, ours]).toEqual([value, byLuxon(value)]);
      }),
      { numRuns: 20_000 },
    );
  });
});
