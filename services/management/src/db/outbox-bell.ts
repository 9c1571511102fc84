/** The outboxes the worker loops of a management process deliver. */
export type OutboxName = 'webhooks' | 'notifications' | 'conversions';

/**
 * Rings this process's outbox workers when a transaction here has committed rows for them, so a
 * call's webhook, e-mail and conversion leave at once instead of at the next poll
 * (docs/architecture.md, Background work). Rows another replica committed are still found by each
 * worker's poll. A ring is a hint: a worker that finds nothing due goes back to its poll.
 */
export class OutboxBell {
  private readonly listeners = new Map<OutboxName, Set<() => void>>();

  ring(outboxes: Iterable<OutboxName>): void {
    for (const outbox of outboxes) for (const wake of this.listeners.get(outbox) ?? []) wake();
  }

  /** Calls `wake` on every ring of `outbox`, until the returned function is called. */
  listen(outbox: OutboxName, wake: () => void): () => void {
    const listeners = this.listeners.get(outbox) ?? new Set();
    listeners.add(wake);
    this.listeners.set(outbox, listeners);
    return () => listeners.delete(wake);
  }
}
