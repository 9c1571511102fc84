import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The house's drawing checked on the code (docs/architecture.md, Floors): no import cycle among
// production files, and no more than a few imports back up the floors, each allowed for a reason.

const SRC = resolve(__dirname, '..');

/** Test code is not part of the house: it may reach anywhere. */
function isTestCode(path: string): boolean {
  return (
    /\.test\.ts$|\.cases\.ts$|\.d\.ts$/.test(path) ||
    /(^|\/)fake-[^/]*\.ts$/.test(path) ||
    /^(test-support|bench|e2e)\//.test(path)
  );
}

/** docs/architecture.md, Floors: 0 infrastructure, 1 the feature rooms, 2 the composition and entry points. */
const INFRASTRUCTURE = ['config/', 'db/', 'http/', 'validation/'];
const TOP = ['composition/', 'cli/', 'app.ts', 'main.ts', 'cli.ts', 'db/data-source.ts', 'db/migrate.ts'];

function floor(path: string): number {
  const under = (prefixes: string[]) => prefixes.some((prefix) => path === prefix || path.startsWith(prefix));
  if (under(TOP)) return 2;
  if (under(INFRASTRUCTURE)) return 0;
  return 1;
}

/** Imports up the floors that stay, each with its reason. */
const ALLOWED_UPWARD: Record<string, string> = {};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(path);
    const name = relative(SRC, path).split(sep).join('/');
    return entry.name.endsWith('.ts') && !isTestCode(name) ? [name] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  return [...text.matchAll(IMPORT)].flatMap((match) => {
    const target = resolve(dirname(join(SRC, file)), match[1]!);
    const path = [`${target}.ts`, join(target, 'index.ts')].find((candidate) => existsSync(candidate));
    return path === undefined ? [] : [relative(SRC, path).split(sep).join('/')];
  });
}

function importGraph(): Map<string, string[]> {
  const files = productionFiles(SRC);
  const production = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file).filter((target) => production.has(target))]));
}

/** Each strongly connected group of more than one file (Tarjan), or a file importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)!.includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

function upwardImports(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => floor(target) > floor(file)).map((target) => `${file} -> ${target}`),
  );
}

describe('the house (docs/architecture.md, Floors)', () => {
  const graph = importGraph();

  it('reads the production files and their imports', () => {
    // A walker that found nothing would pass every check below.
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('composition/management-root.ts')).toContain('composition/management-stores.ts');
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const looped = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(looped)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('goes up the floors only where the allowlist says why, at most 10 times', () => {
    const upward = upwardImports(graph);
    expect(upward.filter((edge) => ALLOWED_UPWARD[edge] === undefined)).toEqual([]);
    expect(upward.length).toBeLessThanOrEqual(10);
  });

  it('keeps no allowlist entry that no import needs', () => {
    const upward = new Set(upwardImports(graph));
    expect(Object.keys(ALLOWED_UPWARD).filter((edge) => !upward.has(edge))).toEqual([]);
  });

  it('counts an import from a room into the composition as going up', () => {
    expect(upwardImports(new Map([['cdrs/create-cdrs.ts', ['composition/stores-on-manager.ts']]]))).toEqual([
      'cdrs/create-cdrs.ts -> composition/stores-on-manager.ts',
    ]);
    expect(
      upwardImports(new Map([['composition/x.ts', ['cdrs/create-cdrs.ts', 'db/pg-errors.ts']]])),
    ).toEqual([]);
  });
});
