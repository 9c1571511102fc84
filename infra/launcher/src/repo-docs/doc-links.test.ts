import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { relativeLinkTargets } from './markdown-doc';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

const DOCUMENTS = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];

describe('links in README.md and docs/', () => {
  it('finds the documents and the README links into docs/', () => {
    expect(DOCUMENTS.length).toBeGreaterThan(1);
    expect(relativeLinkTargets(readFileSync(DOCUMENTS[0], 'utf8'))).toContain('docs/configuration.md');
  });

  it.each(DOCUMENTS.map((file) => [path.relative(ROOT, file), file]))(
    '%s: every relative link points at an existing file',
    (_name, file) => {
      const broken = relativeLinkTargets(readFileSync(file, 'utf8')).filter(
        (target) => !existsSync(path.resolve(path.dirname(file), target)),
      );
      expect(broken).toEqual([]);
    },
  );
});
