/** Nearest-rank percentile of ascending values; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1]!;
}

/** The `dur` of a `Server-Timing: app;dur=<ms>` header, or null when it has none. */
export function serverTimingMs(header: unknown): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return null;
  const match = /(?:^|[;,\s])dur=([0-9]+(?:\.[0-9]+)?)/.exec(value);
  return match === null ? null : Number(match[1]);
}
