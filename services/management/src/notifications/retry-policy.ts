/** A failed delivery waits at most this long before the next try, however many came before. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/**
 * When to try again after the `attempts`-th attempt failed, or null when that was the last one
 * (the row goes dead). Exponential: base, 2·base, 4·base, … capped at an hour.
 */
export function nextAttemptAt(
  attempts: number,
  policy: { maxAttempts: number; baseDelayMs: number },
  now: Date,
): Date | null {
  if (attempts >= policy.maxAttempts) return null;
  const exponent = Math.max(0, attempts - 1);
  const delay = Math.min(MAX_RETRY_DELAY_MS, policy.baseDelayMs * 2 ** exponent);
  return new Date(now.getTime() + delay);
}
