import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const DOC = path.join(ROOT, 'docs', 'benchmarks.md');
const SKIPPED = new Set(['node_modules', 'dist', 'dist-test', '.git', 'bench-results', 'coverage', '.data']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|md|lua)$/.test(entry.name) && full !== DOC && full !== __filename ? [full] : [];
  });
}

/** The headings of docs/benchmarks.md, without their `#`s and backticks. */
function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{2,4}\s+(.+?)\s*$/gm)].map((match) => match[1].replace(/`/g, ''));
}

/**
 * What a file names after a reference to docs/benchmarks.md — `docs/benchmarks.md, Single calls`,
 * `docs/benchmarks.md "Whole system"`, `docs/benchmarks.md (Monthly report)`,
 * `[benchmarks](benchmarks.md), Allocation script` — with comment prefixes and line breaks joined.
 */
function namedSections(text: string): string[] {
  const joined = text.replace(/\n\s*(?:\*|\/\/|--)?\s*/g, ' ');
  const reference = /(?:\]\(benchmarks\.md\),\s*|benchmarks\.md(?:,\s*|\s*\(|\s+"))([^()]{1,80})/g;
  return [...joined.matchAll(reference)].map((match) => match[1].replace(/^"/, ''));
}

describe('docs/benchmarks.md', () => {
  const doc = readFileSync(DOC, 'utf8');

  it('stays a reference: at most 300 lines, as `wc -l` counts them', () => {
    expect((doc.match(/\n/g) ?? []).length).toBeLessThanOrEqual(300);
  });

  it('has every section that code and docs name', () => {
    const known = headings(doc);
    const unknown = sourceFiles(ROOT).flatMap((file) =>
      namedSections(readFileSync(file, 'utf8'))
        .filter((named) => !known.some((heading) => named.startsWith(heading)))
        .map((named) => `${path.relative(ROOT, file)}: ${named}`),
    );
    expect(unknown).toEqual([]);
  });
});
