import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '../../..');
const GENERATOR = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');

/** The client's types are the documents' (`pnpm --filter @trackline/client generate` after a document changes). */
describe.each(['management', 'replacement'])('src/generated/%s.ts', (name) => {
  it(`is what openapi-typescript makes of docs/openapi/${name}.yaml now`, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'trackline-client-types-'));
    try {
      const fresh = join(folder, `${name}.ts`);
      await promisify(execFile)(process.execPath, [
        GENERATOR,
        join(ROOT, `docs/openapi/${name}.yaml`),
        '-o',
        fresh,
      ]);
      expect(await readFile(join(__dirname, 'generated', `${name}.ts`), 'utf8')).toBe(
        await readFile(fresh, 'utf8'),
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
