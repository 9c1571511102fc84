import { setFlagsFromString } from 'node:v8';

/**
 * The old generation may grow to twice what the last full collection kept before V8 collects it
 * again (docs/operations.md, Garbage collection). Left to itself, V8 sized that margin from the
 * phase before: after the statistics pages it allowed about a quarter, and calls posted one at a
 * time, whose few surviving bytes promote steadily, then met a full collection every 3 s, each
 * holding the main thread up to 15 ms at a time (docs/benchmarks.md, Call records: ingestion and
 * single calls).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/**
 * Applies HEAP_GROWING_PERCENT to this process and its threads (V8's flags are the process's);
 * 0 leaves V8's own heuristics. V8 reads the setting at every full collection, so setting it as
 * the process starts is enough. `set` is for tests.
 */
export function applyHeapGrowth(percent: number, set: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) set(`--heap-growing-percent=${percent}`);
}
