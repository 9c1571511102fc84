import type { Metric, Registry } from 'prom-client';

/**
 * Counters and a histogram for hot paths. prom-client's own `inc(labels)` and `observe(value)` hash
 * a label object on every call; these keep plain numbers in a Float64Array, so counting a request is
 * one array increment, and build prom-client's metric shape only when Prometheus scrapes.
 * The registry duck-types metrics (name, help, type, aggregator, get, reset), which is all these
 * provide; its TypeScript signature names only its own classes, hence the one cast in `register`.
 */
interface ScrapedValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

interface ScrapedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: ScrapedValue[];
}

abstract class FixedMetric {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';

  protected constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  protected register(registry: Registry): void {
    registry.registerMetric(this as unknown as Metric);
  }

  get(): Promise<ScrapedMetric> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: this.values(),
    });
  }

  abstract reset(): void;
  protected abstract values(): ScrapedValue[];
}

export interface FixedCounterOptions<V extends string> {
  name: string;
  help: string;
  /** The one label, e.g. `outcome`. */
  label: string;
  /** Every value the label can take, all exposed from the start (at 0). */
  values: readonly V[];
}

/** A counter with one label whose values are known up front; `inc(index)` counts by position. */
export class FixedCounter<V extends string = string> extends FixedMetric {
  readonly type = 'counter';
  private readonly counts: Float64Array;

  constructor(
    registry: Registry,
    private readonly options: FixedCounterOptions<V>,
  ) {
    super(options.name, options.help);
    this.counts = new Float64Array(options.values.length);
    this.register(registry);
  }

  /** The position of a label value, for callers to keep and pass to inc. */
  indexOf(value: V): number {
    const index = this.options.values.indexOf(value);
    if (index === -1) throw new Error(`${this.name}: unknown ${this.options.label} ${value}`);
    return index;
  }

  inc(index: number, by = 1): void {
    this.counts[index]! += by;
  }

  /** The current count of one label value (tests, and metrics derived from it). */
  current(value: V): number {
    return this.counts[this.indexOf(value)]!;
  }

  reset(): void {
    this.counts.fill(0);
  }

  protected values(): ScrapedValue[] {
    return this.options.values.map((value, i) => ({
      value: this.counts[i]!,
      labels: { [this.options.label]: value },
    }));
  }
}

export interface FixedHistogramOptions {
  name: string;
  help: string;
  /** Upper bounds, ascending; `+Inf` is added. */
  buckets: readonly number[];
}

/** A histogram without labels; `observe` is a short scan of the bounds and three additions. */
export class FixedHistogram extends FixedMetric {
  readonly type = 'histogram';
  private readonly bounds: Float64Array;
  /** Per bucket, not cumulative (the last entry is +Inf); made cumulative on scrape. */
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(registry: Registry, options: FixedHistogramOptions) {
    super(options.name, options.help);
    for (let i = 1; i < options.buckets.length; i++) {
      if (!(options.buckets[i]! > options.buckets[i - 1]!))
        throw new Error(`${this.name}: buckets must ascend`);
    }
    this.bounds = Float64Array.from(options.buckets);
    this.counts = new Float64Array(options.buckets.length + 1);
    this.register(registry);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }

  protected values(): ScrapedValue[] {
    const values: ScrapedValue[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.counts.length; i++) {
      cumulative += this.counts[i]!;
      const le = i < this.bounds.length ? this.bounds[i]! : '+Inf';
      values.push({ metricName: `${this.name}_bucket`, labels: { le }, value: cumulative });
    }
    values.push({ metricName: `${this.name}_sum`, labels: {}, value: this.sum });
    values.push({ metricName: `${this.name}_count`, labels: {}, value: this.count });
    return values;
  }
}
