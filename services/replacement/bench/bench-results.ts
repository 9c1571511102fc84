import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes one run's figures to bench-results/<kind>-<time>.json at the workspace root (gitignored),
 * wherever the command was started from; returns the file's path.
 */
export async function writeBenchResults(kind: string, results: object): Promise<string> {
  const dir = benchResultsDir();
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

/** Where every bench writes its results file. */
export function benchResultsDir(): string {
  return join(workspaceRoot(), 'bench-results');
}

function workspaceRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}
