/**
 * Thousandths of a millisecond that keep this process's bindings in the order it made them
 * (docs/redis-keys.md, Allocation). Numbers bound within one millisecond would otherwise share a
 * pool score, a tie Redis breaks by the number's text: a burst recycling a used-up pool could then
 * take a number it had just recycled while one bound before it waits. Each request of a millisecond
 * reserves one thousandth per number on its page, and its bindings are scored that far above the
 * release time. The order is kept here rather than read from the pool in the script: that read was
 * a command of its own on every new session (docs/benchmarks.md, Allocation script). Two processes
 * binding in the same millisecond may still tie; a tie sorts by number.
 */
export class ReleaseOrder {
  private millisecond = Number.NaN;
  private reserved = 0;

  /** Thousandths above the release time for the bindings of a request at `now` showing `count` numbers. */
  next(now: number, count: number): number {
    if (now !== this.millisecond) {
      this.millisecond = now;
      this.reserved = 0;
    }
    const offset = this.reserved;
    this.reserved += count;
    return offset;
  }
}
