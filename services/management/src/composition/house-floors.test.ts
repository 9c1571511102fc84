import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The house's drawing checked on the code (docs/architecture.md, Floors): no import cycle among
// production files, no more than a few imports back up the floors, each allowed for a reason, and
// folders in one order, bottom to top, each importing only folders below it.

const SRC = resolve(__dirname, '..');

/** Test code is not part of the house: it may reach anywhere. */
function isTestCode(path: string): boolean {
  return (
    /\.test\.ts$|\.cases\.ts$|\.d\.ts$/.test(path) ||
    /(^|\/)fake-[^/]*\.ts$/.test(path) ||
    /^(test-support|e2e)\//.test(path)
  );
}

/** docs/architecture.md, Floors: 0 infrastructure, 1 the feature rooms, 2 the composition and entry points. */
const INFRASTRUCTURE = ['config/', 'db/', 'http/', 'validation/'];
const TOP = ['composition/', 'cli/', 'app.ts', 'main.ts', 'cli.ts'];

function floor(path: string): number {
  const under = (prefixes: string[]) => prefixes.some((prefix) => path === prefix || path.startsWith(prefix));
  if (under(TOP)) return 2;
  if (under(INFRASTRUCTURE)) return 0;
  return 1;
}

/** Imports up the floors that stay, each with its reason. */
const ALLOWED_UPWARD: Record<string, string> = {};

/** The files at the source's root (app.ts, main.ts, cli.ts): the programs, on top. */
const ROOT = '(root files)';

/**
 * docs/architecture.md, Folder order: every production folder, bottom to top. A folder imports only
 * folders before it here; a lower folder that needs a higher one's work declares a port that
 * composition fills.
 */
const FOLDER_ORDER = [
  'db',
  'validation',
  'http',
  'config',
  'partners',
  'pricing-models',
  'integrations',
  'notifications',
  'webhooks',
  'customers',
  'customer-events',
  'greetings',
  'pool-telemetry',
  'campaigns',
  'numbers',
  'sources',
  'carrier',
  'cdrs',
  'conversions',
  'outcomes',
  'call-intelligence',
  'spam',
  'projections',
  'data-lifecycle',
  'pool-autoscaling',
  'metrics',
  'reports',
  'telephony',
  'ping',
  'api-reference',
  'composition',
  'cli',
  ROOT,
];

/** Folder imports against the order that stay, `from -> to`, each with its one-line reason. */
const ALLOWED_FOLDER_IMPORTS: Record<string, string> = {};

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

/** A file's folder: the first segment of its path; the root's files are one folder, on top. */
function folderOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : ROOT;
}

/** Which folders each folder's files import (its own left out), without the allowlisted imports. */
function folderGraph(
  graph: Map<string, string[]>,
  allowed: Record<string, string> = {},
): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const imported = folders.get(from) ?? new Set<string>();
    folders.set(from, imported);
    for (const to of targets.map(folderOf))
      if (to !== from && allowed[`${from} -> ${to}`] === undefined) imported.add(to);
  }
  return new Map([...folders].map(([folder, imported]) => [folder, [...imported].sort()]));
}

/** Each pair of folders importing each other, `a <-> b` with a before b. */
function mutualFolders(folders: Map<string, string[]>): string[] {
  return [...folders].flatMap(([from, targets]) =>
    targets.filter((to) => from < to && folders.get(to)?.includes(from)).map((to) => `${from} <-> ${to}`),
  );
}

/** Folder imports that do not go down FOLDER_ORDER. */
function importsAgainstOrder(folders: Map<string, string[]>, order: readonly string[]): string[] {
  return [...folders].flatMap(([from, targets]) =>
    targets.filter((to) => order.indexOf(to) >= order.indexOf(from)).map((to) => `${from} -> ${to}`),
  );
}

/** The order docs/architecture.md writes down: the numbered list of its "Folder order" section. */
function documentedOrder(): string[] {
  const text = readFileSync(resolve(SRC, '../../../docs/architecture.md'), 'utf8');
  const section = text.split('\n### Folder order\n')[1]?.split('\n#')[0] ?? '';
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map(([, name]) =>
    name!.endsWith('.ts') ? ROOT : name!.replace(/\/$/, ''),
  );
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

describe('the folders (docs/architecture.md, Folder order)', () => {
  const graph = importGraph();
  const folders = folderGraph(graph, ALLOWED_FOLDER_IMPORTS);

  it('has no two folders importing each other', () => {
    expect(mutualFolders(folders)).toEqual([]);
  });

  it('has no folder-level cycle', () => {
    expect(cycles(folders)).toEqual([]);
  });

  it('finds folders importing each other when no file cycle shows it', () => {
    const planted = new Map([
      ['cdrs/a.ts', ['sources/b.ts']],
      ['sources/b.ts', []],
      ['sources/c.ts', ['cdrs/d.ts']],
      ['cdrs/d.ts', []],
    ]);
    expect(cycles(planted)).toEqual([]);
    expect(mutualFolders(folderGraph(planted))).toEqual(['cdrs <-> sources']);
    expect(cycles(folderGraph(planted))).toEqual([['cdrs', 'sources']]);
    expect(importsAgainstOrder(folderGraph(planted), ['sources', 'cdrs'])).toEqual(['sources -> cdrs']);
  });

  it('gives every production folder, and only those, a place in the order', () => {
    expect([...folders.keys()].filter((folder) => !FOLDER_ORDER.includes(folder))).toEqual([]);
    expect(FOLDER_ORDER.filter((folder) => !folders.has(folder))).toEqual([]);
  });

  it('imports only folders below in the order', () => {
    expect(importsAgainstOrder(folders, FOLDER_ORDER)).toEqual([]);
  });

  it('keeps the order docs/architecture.md writes down', () => {
    expect(documentedOrder()).toEqual(FOLDER_ORDER);
  });

  it('allows a folder import against the order only with a one-line reason, and only while needed', () => {
    const against = new Set(importsAgainstOrder(folderGraph(graph), FOLDER_ORDER));
    const entries = Object.entries(ALLOWED_FOLDER_IMPORTS);
    expect(entries.filter(([, reason]) => !/^[^\n]{10,}$/.test(reason.trim()))).toEqual([]);
    expect(entries.map(([edge]) => edge).filter((edge) => !against.has(edge))).toEqual([]);
  });
});
