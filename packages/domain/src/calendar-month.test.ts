import { monthHasEnded, monthOf, monthSpan, parseCalendarMonth, previousMonth } from './calendar-month';
import { ValidationError } from './errors';

const OSLO = 'Europe/Oslo';

describe('calendar months', () => {
  it('accepts YYYY-MM and names the field for anything else', () => {
    expect(parseCalendarMonth('month', '2026-03')).toBe('2026-03');
    for (const bad of ['2026-3', '2026-13', '2026-00', '1999-12', '2026-03-01', '', 202603, undefined]) {
      expect(() => parseCalendarMonth('month', bad)).toThrow(ValidationError);
      expect(() => parseCalendarMonth('month', bad)).toThrow(/^month: must be a month YYYY-MM/);
    }
  });

  it('spans local midnight to local midnight across the spring change (743 hours)', () => {
    const span = monthSpan('2026-03', OSLO);
    expect(span.from.toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(span.to.toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect((span.to.getTime() - span.from.getTime()) / 3_600_000).toBe(31 * 24 - 1);
    expect(span.days).toHaveLength(31);
    expect(span.days[0]).toBe('2026-03-01');
    expect(span.days[30]).toBe('2026-03-31');
  });

  it('spans the autumn change (745 hours) and February of a leap year', () => {
    const october = monthSpan('2026-10', OSLO);
    expect(october.from.toISOString()).toBe('2026-09-30T22:00:00.000Z');
    expect(october.to.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect((october.to.getTime() - october.from.getTime()) / 3_600_000).toBe(31 * 24 + 1);
    expect(monthSpan('2028-02', 'UTC').days).toHaveLength(29);
  });

  it('reads the month on the wall clock of the zone', () => {
    // 23:30 UTC on 31 March is 01:30 on 1 April in Oslo.
    expect(monthOf(new Date('2026-03-31T23:30:00Z'), OSLO)).toBe('2026-04');
    expect(monthOf(new Date('2026-03-31T23:30:00Z'), 'UTC')).toBe('2026-03');
    expect(previousMonth('2026-01')).toBe('2025-12');
    expect(monthHasEnded('2026-03', new Date('2026-03-31T21:59:59Z'), OSLO)).toBe(false);
    expect(monthHasEnded('2026-03', new Date('2026-03-31T22:00:00Z'), OSLO)).toBe(true);
  });
});
