import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadApiDocument } from '@trackline/platform';
import { withPathForms } from '../api-reference/path-forms';

const ROOT = join(__dirname, '../../../..');
const PROBES = join(__dirname, '../../test/openapi-type-probes');
const GENERATOR = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const TSC = require.resolve('typescript/bin/tsc');
const run = promisify(execFile);

/**
 * A partner generating types from the served documents gets types its ordinary code compiles against
 * (docs/partner-api.md, API reference): `openapi-typescript` turns `/openapi.json` of each service
 * (docs/openapi/*.yaml as served, the management one with its path forms) into `management.ts` and
 * `replacement.ts`, and each probe in services/management/test/openapi-type-probes/ (create a
 * customer, read its id, list sources, send alt_numbers, read a CDR page, replace numbers) must
 * compile with `tsc --strict` — including its `@ts-expect-error` lines, so a field the server
 * requires must be required in the types too.
 */
describe('types generated from docs/openapi', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'trackline-openapi-types-'));
    for (const name of ['management', 'replacement']) {
      const served = loadApiDocument(`${name}.yaml`, name === 'management' ? { served: withPathForms } : {});
      await writeFile(join(folder, `${name}.json`), served.servedAt('https://api.example.com').json);
      await run(process.execPath, [
        GENERATOR,
        join(folder, `${name}.json`),
        '-o',
        join(folder, `${name}.ts`),
      ]);
    }
    for (const probe of await readdir(PROBES))
      if (probe.endsWith('.probe.ts')) await copyFile(join(PROBES, probe), join(folder, probe));
  }, 60_000);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('compile every usage probe with tsc --strict', async () => {
    const probes = (await readdir(folder)).filter((name) => name.endsWith('.probe.ts'));
    expect(probes).toHaveLength(7);
    const failing: Record<string, string> = {};
    for (const probe of probes) {
      const outcome = await run(
        process.execPath,
        [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck', probe],
        { cwd: folder },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      if (outcome.stdout.trim() !== '') failing[probe] = outcome.stdout.trim();
    }
    expect(failing).toEqual({});
  }, 120_000);
});
