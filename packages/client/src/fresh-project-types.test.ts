import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PACKAGE = join(__dirname, '..');
const ROOT = join(PACKAGE, '../..');
const PROBES = join(PACKAGE, 'test/type-probes');
const TSC = require.resolve('typescript/bin/tsc');

/** The folder of an installed package, found from where `from` would resolve it. */
function packageFolder(name: string, from: string): string {
  return dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
}

/**
 * A partner's fresh project as the README describes it: `@trackline/client` as `npm pack` makes
 * it (the built `dist/`, so `pnpm build` first), `@types/node`, and the README's tsconfig. The
 * probes in test/type-probes/ are ordinary usage written from the seed API documents, and their
 * `@ts-expect-error` lines the mistakes that must not compile: a misspelled body field, a misspelled
 * field read from an answer, a custom field the partner does not have, a basic call record read as
 * an extended one, a listed webhook's secret read as present.
 */
describe('@trackline/client in a fresh project', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'trackline-client-project-'));
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', project], { cwd: PACKAGE });
    const tarball = stdout.trim().split('\n').pop()!;
    const installed = join(project, 'node_modules/@trackline/client');
    await mkdir(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    await rm(tarball);
    // The client's one dependency, and the types a Node project installs itself.
    await symlink(
      packageFolder('openapi-fetch', PACKAGE),
      join(project, 'node_modules/openapi-fetch'),
      'dir',
    );
    await mkdir(join(project, 'node_modules/@types'), { recursive: true });
    await symlink(packageFolder('@types/node', ROOT), join(project, 'node_modules/@types/node'), 'dir');
    await cp(PROBES, project, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('compiles the probes with tsc --strict, each mistake an error where it is expected', async () => {
    expect((await readdir(project)).filter((name) => name.endsWith('.probe.ts')).length).toBeGreaterThan(0);
    const outcome = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
    );
    expect(outcome.stdout.trim()).toBe('');
  }, 120_000);
});
