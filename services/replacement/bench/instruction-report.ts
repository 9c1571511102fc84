/**
 * Reading a callgrind dump of a Node.js server (server-instructions.ts). Callgrind names the code of
 * Node's binary and its libraries, but V8's compiled JavaScript sits in memory no symbol table
 * covers: those functions appear as bare addresses, which the perf map that `node
 * --perf-basic-prof` writes (`/tmp/perf-<pid>.map`: start, size and name per line, in hex) names.
 */

export interface CodeRange {
  start: number;
  size: number;
  name: string;
}

/** The lines of a perf map as ranges, sorted by start. */
export function parsePerfMap(text: string): CodeRange[] {
  const ranges: CodeRange[] = [];
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.+)$/i.exec(line.trim());
    if (match === null) continue;
    ranges.push({ start: parseInt(match[1]!, 16), size: parseInt(match[2]!, 16), name: match[3]! });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

/** The name of the code holding `address`, or undefined (binary search over sorted ranges). */
export function codeAt(ranges: readonly CodeRange[], address: number): string | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle]!;
    if (address < range.start) high = middle - 1;
    else if (address >= range.start + range.size) low = middle + 1;
    else return range.name;
  }
  return undefined;
}

/** The instructions a dump counted in all (its `totals:` line, or `summary:` when it has none). */
export function dumpTotal(dump: string): number {
  const totals = /^totals: (\d+)/m.exec(dump) ?? /^summary: (\d+)/m.exec(dump);
  if (totals === null) throw new Error('no totals in the callgrind dump');
  return Number(totals[1]);
}

export interface FunctionCost {
  name: string;
  instructions: number;
}

/**
 * Self instructions by function from `callgrind_annotate --threshold=100` output, addresses named by
 * the perf map, and paths shortened to the package or the repository's folder. Rows that name the
 * same function (one JavaScript function compiled more than once) are added together.
 */
export function selfCosts(annotated: string, ranges: readonly CodeRange[]): FunctionCost[] {
  const totals = new Map<string, number>();
  for (const line of annotated.split('\n')) {
    const row = /^\s*([\d,]+) \([^)]*\)\s+(.+)$/.exec(line);
    if (row === null || row[2]!.includes('PROGRAM TOTALS')) continue;
    const name = functionName(row[2]!, ranges);
    totals.set(name, (totals.get(name) ?? 0) + Number(row[1]!.replace(/,/g, '')));
  }
  return [...totals]
    .map(([name, instructions]) => ({ name, instructions }))
    .sort((a, b) => b.instructions - a.instructions);
}

function functionName(column: string, ranges: readonly CodeRange[]): string {
  const address = /^\?\?\?:0x([0-9a-f]+) /.exec(column);
  if (address !== null) {
    const code = codeAt(ranges, parseInt(address[1]!, 16));
    // "JS:*name file:line:column": the tier mark (* optimized, ^ baseline, ~ interpreted) stays.
    return code === undefined ? 'JIT code (unnamed)' : shortPath(code);
  }
  // "file:function(arguments) [object]", file "???" for Node's binary: the function and its object.
  const object = / \[[^\]]+\]$/.exec(column)?.[0] ?? '';
  const fn = column.slice(0, column.length - object.length).replace(/^(?:\?\?\?|[^:(]*):/, '');
  return fn.replace(/\(.*$/, '') + object;
}

function shortPath(name: string): string {
  return name
    .replace(/\/\S*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/\/\S*?\/(services|packages)\//, '$1/');
}

/**
 * V8's garbage collection, by the names its functions carry (the scavenger, marking, sweeping,
 * evacuation and their slot sets). Allocation itself (`Factory::AllocateRaw`) is the program's and
 * is not counted here.
 */
const GARBAGE_COLLECTION =
  /Scaveng|Marking|MarkCompact|Sweeper|Evacuat|heap::base::|RememberedSet|SlotSet|MemoryChunk\*|GCTracer|IteratePointers|MinorM|Heap::(?:CollectGarbage|PerformGarbageCollection|IterateRoots)/;

/**
 * The part of the costs spent collecting garbage. A major collection lands in a counted window or
 * not depending on the heap when the window opens: one run counted 37,000 instructions a request in
 * it where the run before counted 5,800, so the count without it is what tells builds apart.
 */
export function garbageCollectionCost(costs: readonly FunctionCost[]): number {
  return costs.reduce((sum, cost) => (GARBAGE_COLLECTION.test(cost.name) ? sum + cost.instructions : sum), 0);
}
