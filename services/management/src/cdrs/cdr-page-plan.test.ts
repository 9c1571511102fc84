import { locatePage, pageEnd, splitAtUtcDays, totalOf, type SplitCounts } from './cdr-page-plan';

const at = (iso: string) => new Date(iso);

describe('splitAtUtcDays', () => {
  it('cuts an Oslo day (UTC+2) into the evening before midnight UTC and the rest of the day', () => {
    expect(splitAtUtcDays(at('2025-06-30T22:00:00Z'), at('2025-07-01T22:00:00Z'))).toEqual({
      head: { from: at('2025-06-30T22:00:00Z'), to: at('2025-07-01T00:00:00Z') },
      days: { firstDay: at('2025-07-01T00:00:00Z'), endDay: at('2025-07-01T00:00:00Z') },
      tail: { from: at('2025-07-01T00:00:00Z'), to: at('2025-07-01T22:00:00Z') },
    });
  });

  it('sums whole days from the counters and leaves no head or tail on UTC midnights', () => {
    expect(splitAtUtcDays(at('2025-07-01T00:00:00Z'), at('2025-07-04T00:00:00Z'))).toEqual({
      head: null,
      days: { firstDay: at('2025-07-01T00:00:00Z'), endDay: at('2025-07-04T00:00:00Z') },
      tail: null,
    });
  });

  it('keeps open ends open', () => {
    expect(splitAtUtcDays(null, null)).toEqual({
      head: null,
      days: { firstDay: null, endDay: null },
      tail: null,
    });
    expect(splitAtUtcDays(null, at('2025-07-01T22:00:00Z'))).toEqual({
      head: null,
      days: { firstDay: null, endDay: at('2025-07-01T00:00:00Z') },
      tail: { from: at('2025-07-01T00:00:00Z'), to: at('2025-07-01T22:00:00Z') },
    });
  });

  it('takes a range inside one UTC day as a head alone', () => {
    expect(splitAtUtcDays(at('2025-07-01T03:00:00Z'), at('2025-07-01T05:00:00Z'))).toEqual({
      head: { from: at('2025-07-01T03:00:00Z'), to: at('2025-07-01T05:00:00Z') },
      days: null,
      tail: null,
    });
  });

  it('has nothing for an empty or reversed range', () => {
    const none = { head: null, days: null, tail: null };
    expect(splitAtUtcDays(at('2025-07-02T00:00:00Z'), at('2025-07-01T00:00:00Z'))).toEqual(none);
    expect(splitAtUtcDays(at('2025-07-01T00:00:00Z'), at('2025-07-01T00:00:00Z'))).toEqual(none);
  });
});

describe('locatePage', () => {
  const counts: SplitCounts = {
    head: { from: at('2025-06-30T22:00:00Z'), count: 3 },
    days: [
      { day: at('2025-07-01T00:00:00Z'), count: 5 },
      { day: at('2025-07-03T00:00:00Z'), count: 2 },
    ],
    tail: { from: at('2025-07-04T00:00:00Z'), count: 4 },
  };

  it('finds the part holding the offset and the records of that part before it', () => {
    expect(locatePage(counts, 0)).toEqual({ seek: at('2025-06-30T22:00:00Z'), skip: 0 });
    expect(locatePage(counts, 2)).toEqual({ seek: at('2025-06-30T22:00:00Z'), skip: 2 });
    expect(locatePage(counts, 3)).toEqual({ seek: at('2025-07-01T00:00:00Z'), skip: 0 });
    expect(locatePage(counts, 7)).toEqual({ seek: at('2025-07-01T00:00:00Z'), skip: 4 });
    expect(locatePage(counts, 8)).toEqual({ seek: at('2025-07-03T00:00:00Z'), skip: 0 });
    expect(locatePage(counts, 13)).toEqual({ seek: at('2025-07-04T00:00:00Z'), skip: 3 });
  });

  it('bounds a page by the start of the part after the one holding its last record', () => {
    expect(pageEnd(counts, 0)).toEqual(at('2025-07-01T00:00:00Z'));
    expect(pageEnd(counts, 2)).toEqual(at('2025-07-01T00:00:00Z'));
    expect(pageEnd(counts, 3)).toEqual(at('2025-07-03T00:00:00Z'));
    expect(pageEnd(counts, 9)).toEqual(at('2025-07-04T00:00:00Z'));
    expect(pageEnd(counts, 10)).toBeNull();
    expect(pageEnd(counts, 500)).toBeNull();
    // An empty part after the page's last is no bound: the next one with records is.
    expect(
      pageEnd(
        {
          head: { from: at('2025-06-30T22:00:00Z'), count: 1 },
          days: [],
          tail: { from: at('2025-07-04T00:00:00Z'), count: 0 },
        },
        0,
      ),
    ).toBeNull();
  });

  it('has no page past the end, and skips empty parts', () => {
    expect(totalOf(counts)).toBe(14);
    expect(locatePage(counts, 14)).toBeNull();
    expect(
      locatePage({ head: { from: at('2025-07-01T00:00:00Z'), count: 0 }, days: [], tail: null }, 0),
    ).toBeNull();
    expect(
      locatePage(
        {
          head: null,
          days: [
            { day: at('2025-07-01T00:00:00Z'), count: 0 },
            { day: at('2025-07-02T00:00:00Z'), count: 1 },
          ],
          tail: null,
        },
        0,
      ),
    ).toEqual({ seek: at('2025-07-02T00:00:00Z'), skip: 0 });
  });
});
