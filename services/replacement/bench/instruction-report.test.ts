import { garbageCollectionCost, codeAt, dumpTotal, parsePerfMap, selfCosts } from './instruction-report';

const PERF_MAP = [
  'd1f4940 f14 JS:*allocate /srv/trackline/services/replacement/dist/pools/number-pool.store.js:27:19',
  'd1ef880 2698 JS:*Command /srv/trackline/node_modules/.pnpm/ioredis@5.11.1/node_modules/ioredis/built/Command.js:37:16',
  'not a line of a perf map',
  '',
].join('\n');

describe('the perf map', () => {
  const ranges = parsePerfMap(PERF_MAP);

  it('reads start, size and name, sorted by start', () => {
    expect(ranges.map((range) => range.start)).toEqual([0xd1ef880, 0xd1f4940]);
    expect(ranges[1]).toMatchObject({ size: 0xf14 });
  });

  it('names an address inside a range, and none outside every range', () => {
    expect(codeAt(ranges, 0xd1ef880)).toContain('JS:*Command');
    expect(codeAt(ranges, 0xd1ef880 + 0x2697)).toContain('JS:*Command');
    expect(codeAt(ranges, 0xd1ef880 + 0x2698)).toBeUndefined();
    expect(codeAt(ranges, 0xd1f4940 + 0x10)).toContain('JS:*allocate');
    expect(codeAt(ranges, 0x1000)).toBeUndefined();
  });
});

describe('a callgrind dump', () => {
  it('holds its total in the totals line, or in the summary line without one', () => {
    expect(dumpTotal('events: Ir\nsummary: 12\ntotals: 953382287\n')).toBe(953382287);
    expect(dumpTotal('events: Ir\nsummary: 4711\n')).toBe(4711);
    expect(() => dumpTotal('events: Ir\n')).toThrow('no totals');
  });

  it('gives self instructions by function, JIT addresses named by the perf map, one row per name', () => {
    const annotated = [
      '--------------------------------------------------------------------------------',
      '704,055,297 (100.0%)  PROGRAM TOTALS',
      '29,348,416 ( 4.17%)  ???:v8::String::WriteUtf8(v8::Isolate*, char*, int, int*, int) const [/usr/bin/node]',
      ' 9,998,000 ( 1.42%)  ???:0x000000000d1f4950 [???]',
      ' 4,000,000 ( 0.57%)  ???:0x000000000d1f5000 [???]',
      ' 5,908,129 ( 0.84%)  ./malloc/./malloc/malloc.c:_int_free [/usr/lib/x86_64-linux-gnu/libc.so.6]',
      '   120,000 ( 0.02%)  ???:0x0000000000000010 [???]',
    ].join('\n');
    expect(selfCosts(annotated, parsePerfMap(PERF_MAP))).toEqual([
      { name: 'v8::String::WriteUtf8 [/usr/bin/node]', instructions: 29_348_416 },
      {
        name: 'JS:*allocate services/replacement/dist/pools/number-pool.store.js:27:19',
        instructions: 13_998_000,
      },
      { name: '_int_free [/usr/lib/x86_64-linux-gnu/libc.so.6]', instructions: 5_908_129 },
      { name: 'JIT code (unnamed)', instructions: 120_000 },
    ]);
  });

  it("adds up V8's garbage collection, and not the program's own allocation", () => {
    const costs = [
      { name: 'v8::internal::ConcurrentMarking::RunMajor [/usr/bin/node]', instructions: 7_000 },
      { name: 'v8::internal::Sweeper::RawSweep [/usr/bin/node]', instructions: 6_000 },
      {
        name: 'heap::base::SlotCallbackResult v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot> [/usr/bin/node]',
        instructions: 900,
      },
      {
        name: 'std::__detail::_Map_base<v8::internal::MemoryChunk*, std::pair<v8::internal::MemoryChunk* const, v8::internal::MemoryChunkData>>::operator[] [/usr/bin/node]',
        instructions: 100,
      },
      { name: 'v8::internal::Factory::AllocateRaw [/usr/bin/node]', instructions: 3_000 },
      {
        name: 'JS:*allocate services/replacement/dist/pools/number-pool.store.js:27:19',
        instructions: 1_400,
      },
      { name: 'v8::internal::JsonStringifier::SerializeString [/usr/bin/node]', instructions: 9_000 },
    ];
    expect(garbageCollectionCost(costs)).toBe(14_000);
    expect(garbageCollectionCost([])).toBe(0);
  });
});
