/** What a round asks for next: another round at once (there may be more to do), or the idle wait. */
export type RoundOutcome = 'again' | 'idle';

/** Waits `ms`, or less when `signal` aborts; never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface PollingWorkerOptions {
  /** Names the worker in the error a second start() throws. */
  name: string;
  /**
   * One round of work. `signal` aborts when stop() is called; a round may pass it on to waits of
   * its own, or finish what it holds (stop() waits for it either way).
   */
  round(signal: AbortSignal): Promise<RoundOutcome>;
  /** The wait after an idle round, cut short by wake() and by stop(). */
  idleMs: number;
  /**
   * The wait after a failed round: `firstMs`, doubled after each further failure in a row, at most
   * `maxMs`. Left out: from `idleMs` up to `DEFAULT_MAX_ERROR_BACKOFF_MS` (or `idleMs` when longer).
   */
  errorBackoff?: { firstMs: number; maxMs: number };
  /**
   * A round failed (a failure while stopping is not reported). `failures` counts the failures in a
   * row, from 1; the next round starts in `retryInMs`.
   */
  onError(error: unknown, failures: number, retryInMs: number): void;
  /** A round succeeded after `failures` failed ones. */
  onRecovered?(failures: number): void;
  /** Tests pass their own, to step through waits without a clock. */
  sleep?: Sleep;
}

/** The longest wait after failures, when a worker names no other cap. */
export const DEFAULT_MAX_ERROR_BACKOFF_MS = 30_000;

/** The wait after the `failures`-th failed round in a row (1, 2, …): exponential, capped. */
export function errorBackoffMs(failures: number, backoff: { firstMs: number; maxMs: number }): number {
  const exponent = Math.max(0, failures - 1);
  // 2 ** exponent overflows to Infinity long before a worker fails that often; min() still caps it.
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** exponent);
}

/** setTimeout, ended early by the signal; no error is made (timers/promises would build one per wake-up). */
const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timeout);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timeout = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Why a wait ended early (a wake-up or stop()); never thrown to a caller. */
const WAIT_ENDED = Object.freeze({ reason: 'wait ended' });

/**
 * The loop every background worker runs: a round, then another at once or the idle wait; after a
 * failure an exponential backoff instead, so a store that is down is not hammered; stop() ends
 * the wait in progress, lets the round in flight finish and resolves when the loop has ended.
 */
export class PollingWorker {
  private readonly stopping = new AbortController();
  private readonly sleep: Sleep;
  private readonly errorBackoff: { firstMs: number; maxMs: number };
  private loop: Promise<void> | undefined;
  private interruptWait: (() => void) | undefined;
  private wokenEarly = false;

  constructor(private readonly options: PollingWorkerOptions) {
    this.sleep = options.sleep ?? realSleep;
    this.errorBackoff = options.errorBackoff ?? {
      firstMs: options.idleMs,
      maxMs: Math.max(options.idleMs, DEFAULT_MAX_ERROR_BACKOFF_MS),
    };
  }

  /** Aborts when stop() is called. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  start(): void {
    if (this.loop !== undefined) throw new Error(`${this.options.name} already started`);
    this.loop = this.run();
  }

  /** Ends the loop: no round starts after this; resolves when the round in flight has finished. */
  async stop(): Promise<void> {
    // Aborting also ends the wait in progress (wait() listens to the signal).
    this.stopping.abort();
    await this.loop;
  }

  /**
   * There is work to look at: the idle wait in progress ends now, or, during a round, the next
   * idle wait is skipped (a wake-up never gets lost between a round and its wait).
   */
  wake(): void {
    if (this.interruptWait !== undefined) this.interruptWait();
    else this.wokenEarly = true;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.signal.aborted) {
      let outcome: RoundOutcome;
      try {
        outcome = await this.options.round(this.signal);
      } catch (error) {
        if (this.signal.aborted) break;
        failures += 1;
        const retryInMs = errorBackoffMs(failures, this.errorBackoff);
        this.options.onError(error, failures, retryInMs);
        // Not cut short by wake(): a wake-up says there is work, not that the store is back.
        await this.wait(retryInMs, false);
        continue;
      }
      if (failures > 0) this.options.onRecovered?.(failures);
      failures = 0;
      if (outcome === 'idle') await this.wait(this.options.idleMs, true);
    }
  }

  private async wait(ms: number, wakeable: boolean): Promise<void> {
    if (wakeable && this.wokenEarly) {
      this.wokenEarly = false;
      return;
    }
    if (this.signal.aborted) return;
    const waiting = new AbortController();
    // A reason of its own: abort() without one builds a DOMException, on every wake-up.
    const end = (): void => waiting.abort(WAIT_ENDED);
    this.signal.addEventListener('abort', end, { once: true });
    if (wakeable) this.interruptWait = end;
    try {
      await this.sleep(ms, waiting.signal);
    } finally {
      this.signal.removeEventListener('abort', end);
      if (wakeable) this.interruptWait = undefined;
    }
  }
}
