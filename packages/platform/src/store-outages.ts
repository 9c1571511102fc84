import type { Logger } from 'pino';

/** What was refused while a store was down: a request answered 503, or a worker's round. */
export type RefusedWork = 'request' | 'round';

export interface StoreOutagesOptions<S extends string> {
  log: Logger;
  /** Which store an error says is unreachable; undefined when it says something else. */
  storeOf(error: unknown): S | undefined;
  /**
   * Asks a store whether it answers again; polled every `probeEveryMs` while it is down. A store
   * without one is back when `reachable(store)` is called (a worker's round that succeeded).
   */
  probes?: Partial<Record<S, () => Promise<boolean>>>;
  probeEveryMs?: number;
  /** Counts each refusal (docs/operations.md, `trackline_store_refusals_total`). */
  onRefused?(store: S, work: RefusedWork): void;
  now?: () => number;
}

interface Outage {
  since: number;
  requests: number;
  rounds: number;
  probe: NodeJS.Timeout | undefined;
}

const DEFAULT_PROBE_EVERY_MS = 1_000;

/**
 * A store outage told as one story (docs/operations.md, Store outages): one line when a store
 * becomes unreachable (which store, the first error's message, no stack: the cause is known), one
 * line when it answers again (how long it was down, how much work was refused meanwhile), and
 * counters in between. Without it every refused request logged its own stack trace: hundreds of
 * lines a second hiding the one that mattered.
 */
export class StoreOutages<S extends string> {
  private readonly outages = new Map<S, Outage>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: StoreOutagesOptions<S>) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Records work refused because of `error`. False when the error is no store outage: the caller
   * logs it as the unexpected fault it is, with its stack.
   */
  refused(error: unknown, work: RefusedWork): boolean {
    const store = this.options.storeOf(error);
    if (store === undefined) return false;
    this.options.onRefused?.(store, work);
    let outage = this.outages.get(store);
    if (outage === undefined) {
      outage = { since: this.now(), requests: 0, rounds: 0, probe: undefined };
      this.outages.set(store, outage);
      this.options.log.error({ store, error: describe(error) }, `${store} is unreachable`);
      this.scheduleProbe(store, outage);
    }
    if (work === 'request') outage.requests += 1;
    else outage.rounds += 1;
    return true;
  }

  /** The store an error says is unreachable, if any. */
  storeOf(error: unknown): S | undefined {
    return this.options.storeOf(error);
  }

  /** Whether `store` is down, as far as refused work has told. */
  isDown(store: S): boolean {
    return this.outages.has(store);
  }

  /** The store answers again (a probe, or work that needed it succeeded): the outage's last line. */
  reachable(store: S): void {
    const outage = this.outages.get(store);
    if (outage === undefined) return;
    this.outages.delete(store);
    clearTimeout(outage.probe);
    this.options.log.warn(
      {
        store,
        downMs: this.now() - outage.since,
        refusedRequests: outage.requests,
        failedRounds: outage.rounds,
      },
      `${store} is reachable again`,
    );
  }

  /** Stops probing; an outage in progress ends without its last line. */
  close(): void {
    this.closed = true;
    for (const outage of this.outages.values()) clearTimeout(outage.probe);
    this.outages.clear();
  }

  private scheduleProbe(store: S, outage: Outage): void {
    const probe = this.options.probes?.[store];
    if (probe === undefined || this.closed) return;
    outage.probe = setTimeout(() => {
      void probe()
        .catch(() => false)
        .then((answers) => {
          if (this.outages.get(store) !== outage) return;
          if (answers) this.reachable(store);
          else this.scheduleProbe(store, outage);
        });
    }, this.options.probeEveryMs ?? DEFAULT_PROBE_EVERY_MS);
    // A probe never keeps a process alive that is otherwise done.
    outage.probe.unref();
  }
}

/**
 * A polling worker's onError/onRecovered that tell a store outage through `outages` and log any
 * other failure with its stack, as before (every failure, when no `outages` is given).
 */
export function outageAwareRounds<S extends string>(
  outages: StoreOutages<S> | undefined,
  log: Logger,
  what: string,
): {
  onError(error: unknown, failures: number, retryInMs: number): void;
  onRecovered(failures: number): void;
} {
  let downStore: S | undefined;
  return {
    onError: (error, failures, retryInMs) => {
      if (outages?.refused(error, 'round') === true) downStore = outages.storeOf(error);
      else log.error({ err: error, failures, retryInMs }, `${what} round failed; retrying`);
    },
    onRecovered: (failures) => {
      if (downStore !== undefined) outages?.reachable(downStore);
      else log.info({ failures }, `${what} rounds work again`);
      downStore = undefined;
    },
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}
