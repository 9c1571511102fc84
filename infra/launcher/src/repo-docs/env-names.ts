import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// `read.<method>('NAME'`: every EnvReader call of the config loaders. reject() names a rule, not a read.
const READER_CALL = /\bread\.(\w+)\(\s*['"]([A-Z][A-Z0-9_]*)['"]/g;
// process.env.NAME and process.env['NAME']: the few direct reads (the launcher's PATH).
const PROCESS_ENV = /\bprocess\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g;

/** The environment variable names a TypeScript source reads through EnvReader or process.env. */
export function envNamesIn(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(READER_CALL)) if (match[1] !== 'reject') names.add(match[2]);
  for (const match of source.matchAll(PROCESS_ENV)) names.add(match[1] ?? match[2]);
  return [...names].sort();
}

/**
 * The TypeScript files under dir (recursively) that belong to the running program: tests, test
 * support and fixtures are left out, since the variables they set are the tests', not the operator's.
 */
export function programSources(dir: string, skipFolders: string[] = []): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['test-support', ...skipFolders].includes(entry.name))
        files.push(...programSources(full, skipFolders));
    } else if (/\.ts$/.test(entry.name) && !/\.(test|fixture|d)\.ts$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files.sort();
}

/** Every variable the given files read, with the files that read it. */
export function envNamesInFiles(files: string[]): Map<string, string[]> {
  const readers = new Map<string, string[]>();
  for (const file of files) {
    for (const name of envNamesIn(readFileSync(file, 'utf8')))
      readers.set(name, [...(readers.get(name) ?? []), file]);
  }
  return readers;
}
