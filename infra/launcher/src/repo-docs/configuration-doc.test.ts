import { readFileSync } from 'node:fs';
import path from 'node:path';
import { envNamesInFiles, programSources } from './env-names';
import { sections, variableRows } from './markdown-doc';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const DOC = path.join(ROOT, 'docs', 'configuration.md');

// The settings both services read by the same rules; each service's section lists them.
const SHARED_SETTINGS = path.join(ROOT, 'packages/platform/src/shared-settings.ts');

// Each program's config loaders, and the section of docs/configuration.md that must list what they read.
const PROGRAMS = [
  {
    section: /^Management service/,
    sources: () => [...programSources(path.join(ROOT, 'services/management/src/config')), SHARED_SETTINGS],
  },
  {
    section: /^Replacement service/,
    sources: () => [...programSources(path.join(ROOT, 'services/replacement/src/config')), SHARED_SETTINGS],
  },
  {
    section: /^Launcher/,
    // repo-docs holds these checks, whose patterns are not reads.
    sources: () => programSources(path.join(ROOT, 'infra/launcher/src'), ['repo-docs']),
  },
];

describe('docs/configuration.md', () => {
  const documentSections = sections(readFileSync(DOC, 'utf8'));

  describe.each(PROGRAMS)('the section $section', ({ section, sources }) => {
    const found = documentSections.find((candidate) => section.test(candidate.heading));
    const rows = found === undefined ? [] : variableRows(found.body);
    const readers = envNamesInFiles(sources());

    it('exists and lists variables', () => {
      expect(found).toBeDefined();
      expect(rows.length).toBeGreaterThan(0);
    });

    it('lists every variable the config loaders read', () => {
      const documented = new Set(rows.map((row) => row.name));
      const undocumented = [...readers.keys()].filter((name) => !documented.has(name));
      expect(
        undocumented.map(
          (name) =>
            `${name} (read in ${readers
              .get(name)!
              .map((file) => path.relative(ROOT, file))
              .join(', ')})`,
        ),
      ).toEqual([]);
    });

    it('lists nothing the config loaders no longer read', () => {
      expect(rows.map((row) => row.name).filter((name) => !readers.has(name))).toEqual([]);
    });

    it('gives each variable a type, a default and a meaning', () => {
      const incomplete = rows.filter(
        (row) => row.cells.length !== 3 || row.cells.some((cell) => cell === ''),
      );
      expect(incomplete.map((row) => row.name)).toEqual([]);
    });
  });

  it('is checked against a scan that finds the reads it should', () => {
    // Guards the scan itself: were its patterns to stop matching, every check above would pass empty.
    const management = envNamesInFiles(PROGRAMS[0].sources());
    const launcher = envNamesInFiles(PROGRAMS[2].sources());
    expect([...management.keys()]).toEqual(
      expect.arrayContaining(['MANAGEMENT_PORT', 'DATABASE_URL', 'NOTIFY_POLL_MS']),
    );
    expect([...launcher.keys()]).toEqual(
      expect.arrayContaining(['DATA_DIR', 'EMBEDDED_POSTGRES_PORT', 'PATH']),
    );
  });
});
