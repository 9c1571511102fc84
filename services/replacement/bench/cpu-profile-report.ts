import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (node --cpu-prof) this report reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a server's CPU goes, by the category of the sampled function or of the first caller that
 * names one (docs/benchmarks.md, Replacement CPU per request). The first rule that matches decides.
 */
const CATEGORIES: ReadonlyArray<{ name: string; matches(functionName: string, url: string): boolean }> = [
  { name: 'idle', matches: (fn) => fn === '(idle)' },
  { name: 'GC', matches: (fn) => fn === '(garbage collector)' },
  {
    name: 'socket writes',
    matches: (fn) => fn === 'writev' || fn === 'writeBuffer' || fn === 'writeUtf8String',
  },
  { name: 'HMAC', matches: (fn) => fn === 'digest' || fn === 'update' || /createHmac|Hmac/.test(fn) },
  { name: 'ioredis', matches: (_, url) => url.includes('/ioredis/') || url.includes('/redis-parser/') },
  { name: 'libphonenumber', matches: (_, url) => url.includes('libphonenumber') },
  { name: 'service code', matches: (_, url) => url.includes('/dist/') || url.includes('/dist-test/') },
  { name: 'node:http', matches: (_, url) => /node:_http|node:http/.test(url) },
  {
    name: 'streams, net, events, timers',
    matches: (_, url) => /node:(internal\/)?(stream|net|events|timers)/.test(url),
  },
];

export interface CpuShare {
  category: string;
  microseconds: number;
}

/** Time per category, in µs; `other` holds what no category and no caller's category named. */
export function cpuByCategory(profile: CpuProfile): CpuShare[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const categoryOf = new Map<number, string>();
  const categorize = (id: number): string => {
    const known = categoryOf.get(id);
    if (known !== undefined) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    const own = CATEGORIES.find((category) => category.matches(functionName, url))?.name;
    const parent = parentOf.get(id);
    const found = own ?? (parent === undefined ? 'other' : categorize(parent));
    categoryOf.set(id, found);
    return found;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const category = categorize(id);
    totals.set(category, (totals.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...totals]
    .map(([category, microseconds]) => ({ category, microseconds }))
    .sort((a, b) => b.microseconds - a.microseconds);
}

/** `node cpu-profile-report.js <file.cpuprofile> <requests>`: µs per request by category. */
function main(): void {
  const [file, requests] = process.argv.slice(2);
  if (file === undefined || requests === undefined || !(Number(requests) > 0)) {
    process.stderr.write('usage: node cpu-profile-report.js <file.cpuprofile> <requests answered>\n');
    process.exitCode = 2;
    return;
  }
  const shares = cpuByCategory(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const busy = shares.filter((share) => share.category !== 'idle');
  const total = busy.reduce((sum, share) => sum + share.microseconds, 0);
  for (const share of busy)
    process.stdout.write(
      `${share.category.padEnd(30)} ${(share.microseconds / Number(requests)).toFixed(1).padStart(7)} µs ` +
        `${((100 * share.microseconds) / total).toFixed(0).padStart(3)} %\n`,
    );
  process.stdout.write(`${'busy'.padEnd(30)} ${(total / Number(requests)).toFixed(1).padStart(7)} µs\n`);
}

if (require.main === module) main();
