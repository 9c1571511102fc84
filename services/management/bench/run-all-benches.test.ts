import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitStatusOf, missedTargets, runParts, summary, type BenchPart } from './run-all-benches';

describe('pnpm bench runs every part', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tl-bench-parts-'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function script(name: string, body: string): Promise<BenchPart> {
    const file = join(folder, `${name}.js`);
    await writeFile(file, body);
    return { name, script: file };
  }

  it('runs the parts after one that missed a target, and exits 1', async () => {
    const ran = join(folder, 'ran');
    const parts = [
      await script('first', 'process.exitCode = 1;'),
      await script('second', `require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'yes');`),
    ];
    const outcomes = await runParts(parts);
    expect(outcomes.map((o) => o.status)).toEqual([1, 0]);
    expect(outcomes.map((o) => o.missed)).toEqual([[], []]);
    expect(readFileSync(ran, 'utf8')).toBe('yes');
    expect(exitStatusOf(outcomes)).toBe(1);
    expect(summary(parts, outcomes)).toEqual([
      'first: failed (exit status 1; its output above says why)',
      'second: every target met',
    ]);
  });

  it('exits 0 only when every part did', async () => {
    const parts = [await script('a', ''), await script('b', '')];
    const outcomes = await runParts(parts);
    expect(exitStatusOf(outcomes)).toBe(0);
    expect(summary(parts, outcomes)).toEqual(['a: every target met', 'b: every target met']);
  });

  it('stops at a part ended by a signal and names the parts not run', async () => {
    const parts = [
      await script('interrupted', "process.kill(process.pid, 'SIGINT');"),
      await script('after', ''),
    ];
    const outcomes = await runParts(parts);
    expect(outcomes).toEqual([{ name: 'interrupted', status: null, signal: 'SIGINT', missed: [] }]);
    expect(exitStatusOf(outcomes)).toBe(1);
    expect(summary(parts, outcomes)).toEqual(['interrupted: stopped by SIGINT', 'after: not run']);
  });

  it('names the missed targets of a part from what it wrote', () => {
    const parts = [{ name: 'whole system', script: 'x.js' }];
    const missed = missedTargets({
      targets: [
        { target: 'new sessions: throughput ≥ 0.75 × minimal', measured: '0.63 ×', met: false },
        { target: 'processing p99 ≤ 5 ms', measured: '1.9 ms', met: true },
      ],
    });
    expect(summary(parts, [{ name: 'whole system', status: 1, signal: null, missed }])).toEqual([
      'whole system: missed new sessions: throughput ≥ 0.75 × minimal',
    ]);
    // The management bench calls them verdicts.
    expect(missedTargets({ verdicts: [{ target: 'ingestion ≥ 1000 calls/s', met: false }] })).toEqual([
      'ingestion ≥ 1000 calls/s',
    ]);
    expect(missedTargets(null)).toEqual([]);
    expect(missedTargets({ phases: [] })).toEqual([]);
  });
});
