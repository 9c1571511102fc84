import { StoreUnavailableError } from './replacement-errors';

/**
 * Bounds the Redis work of one request: each command already has its own timeout, but two in a
 * row (partner settings, then allocation) could together pass the 200 ms answer budget.
 */
export function withStoreDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`no answer within ${deadlineMs} ms`)),
      deadlineMs,
    );
  });
  // The losing promise may still reject later; that rejection is expected and must not go unhandled.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
