import { StoreUnavailableError } from '../resilience/store-unavailable-error';

/**
 * Bounds the Redis work of one request: each command already has its own timeout, but two in a
 * row (partner settings, then allocation) could together pass the 200 ms answer budget.
 * One promise and one timer per request (no Promise.race/finally chain): this runs on every
 * replacement request. A late settlement of `work` after the deadline is ignored, and its
 * rejection is handled, so it never surfaces as unhandled.
 */
export function withStoreDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StoreUnavailableError(`no answer within ${deadlineMs} ms`, true)),
      deadlineMs,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
