import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@trackline/platform';
import { applyHeapGrowth, DEFAULT_HEAP_GROWING_PERCENT } from './heap-growth';
import { loadManagementConfig } from './management-config';

// The built module (`pnpm test` builds before running jest), in a process of its own: V8's flags
// are the process's, and this one's must stay as they are.
const BUILT = join(__dirname, '..', '..', 'dist', 'config', 'heap-growth.js');

/** V8's flags of a fresh process after `applyHeapGrowth(percent)`, as V8 lists them. */
function flagsAfter(percent: number): Promise<string> {
  const script = `require(${JSON.stringify(BUILT)}).applyHeapGrowth(${percent});
    require('node:v8').setFlagsFromString('--help');`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', script], (error, stdout, stderr) =>
      error === null ? resolve(`${stdout}${stderr}`) : reject(error),
    ),
  );
}

describe('HEAP_GROWING_PERCENT (docs/operations.md, Garbage collection)', () => {
  it('defaults to 100, takes 0 to 400, and names the variable otherwise', () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(100);
    expect(loadManagementConfig({}).heapGrowingPercent).toBe(100);
    expect(loadManagementConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadManagementConfig({ HEAP_GROWING_PERCENT: '400' }).heapGrowingPercent).toBe(400);
    for (const value of ['401', '-1', 'half']) {
      expect(() => loadManagementConfig({ HEAP_GROWING_PERCENT: value })).toThrow(ConfigError);
      try {
        loadManagementConfig({ HEAP_GROWING_PERCENT: value });
      } catch (error) {
        expect((error as ConfigError).problems[0]).toMatch(/^HEAP_GROWING_PERCENT/);
      }
    }
  });

  it('hands V8 the flag, or nothing when 0', () => {
    const set = jest.fn();
    applyHeapGrowth(150, set);
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=150');
    set.mockClear();
    applyHeapGrowth(0, set);
    expect(set).not.toHaveBeenCalled();
  });

  it('is a flag this Node.js’s V8 knows and keeps', async () => {
    if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing; run \`pnpm build\` first`);
    const applied = await flagsAfter(100);
    expect(applied).not.toMatch(/unrecognized flag/);
    expect(applied).toMatch(/default: --heap-growing-percent=100\b/);
    expect(await flagsAfter(0)).toMatch(/default: --heap-growing-percent=0\b/);
  });
});
