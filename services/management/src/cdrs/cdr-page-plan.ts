const DAY_MS = 86_400_000;

/** An instant range, [from, to). */
export interface Span {
  from: Date;
  to: Date;
}

/**
 * A statistics range cut at UTC midnights, the grain of "cdr_day_counts": the part before the first
 * whole day and the part after the last are counted in "cdrs" (less than a day each), the whole days
 * [firstDay, endDay) are summed from the counters. Null day bounds are open.
 */
export interface DaySplit {
  head: Span | null;
  days: { firstDay: Date | null; endDay: Date | null } | null;
  tail: Span | null;
}

export function splitAtUtcDays(from: Date | null, to: Date | null): DaySplit {
  if (from !== null && to !== null && from >= to) return { head: null, days: null, tail: null };
  const firstDay = from === null ? null : new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS);
  const endDay = to === null ? null : new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS);
  // Both ends inside one UTC day: no whole day between them.
  if (from !== null && to !== null && firstDay! > endDay!)
    return { head: { from, to }, days: null, tail: null };
  return {
    head: from !== null && from < firstDay! ? { from, to: firstDay! } : null,
    days: { firstDay, endDay },
    tail: to !== null && endDay! < to ? { from: endDay!, to } : null,
  };
}

/** Records in each part of a DaySplit, in order of time. */
export interface SplitCounts {
  head: { from: Date; count: number } | null;
  days: readonly { day: Date; count: number }[];
  tail: { from: Date; count: number } | null;
}

/**
 * Where the page at `offset` starts: the first instant of the part (head, day or tail) that holds
 * its first record, and how many records of that part come before it. Null past the end.
 */
export function locatePage(counts: SplitCounts, offset: number): { seek: Date; skip: number } | null {
  const parts = partsOf(counts);
  let before = 0;
  for (const part of parts) {
    if (offset < before + part.count) return { seek: part.from, skip: offset - before };
    before += part.count;
  }
  return null;
}

/**
 * An upper bound for the scan of a page whose last record is the `last`-th: the first instant of the
 * part after the one holding it (no record of the range lies between), or null when it is in the
 * last part. On the table partitioned by month, the bound lets the planner consider only the months
 * the page can touch instead of every later one (docs/benchmarks.md).
 */
export function pageEnd(counts: SplitCounts, last: number): Date | null {
  const parts = partsOf(counts);
  let before = 0;
  for (let i = 0; i < parts.length; i++) {
    before += parts[i]!.count;
    if (last < before) return parts.slice(i + 1).find((part) => part.count > 0)?.from ?? null;
  }
  return null;
}

function partsOf(counts: SplitCounts): { from: Date; count: number }[] {
  return [
    ...(counts.head === null ? [] : [{ from: counts.head.from, count: counts.head.count }]),
    ...counts.days.map((day) => ({ from: day.day, count: day.count })),
    ...(counts.tail === null ? [] : [{ from: counts.tail.from, count: counts.tail.count }]),
  ];
}

export function totalOf(counts: SplitCounts): number {
  return (
    (counts.head?.count ?? 0) +
    counts.days.reduce((sum, day) => sum + day.count, 0) +
    (counts.tail?.count ?? 0)
  );
}
