import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The path of an executable on PATH, or undefined. */
export function binaryOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

export function runningUnderCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

export const MISSING_PROMETHEUS =
  'Debian package `prometheus` (promtool and prometheus) is not installed: apt-get install -y prometheus';

/**
 * `describe` when `promtool` or `prometheus` is on PATH (Debian's `prometheus` package installs
 * both). Without it the suite is skipped on a developer's machine, with a warning; under CI (`CI`
 * set, as `.ci/run` sets it) it fails instead, so rules never checked cannot pass CI. So:
 * `describe` when the binary is there; under CI a suite whose one test fails naming the package;
 * elsewhere `describe.skip`, after a warning.
 */
export function describeWithBinary(name: 'promtool' | 'prometheus'): jest.Describe {
  if (binaryOnPath(name) !== undefined) return describe;
  if (runningUnderCi()) {
    return ((title: string) =>
      describe(title, () => {
        it(`needs ${name} on PATH`, () => {
          throw new Error(`${name} not found on PATH. ${MISSING_PROMETHEUS}`);
        });
      })) as unknown as jest.Describe;
  }
  console.warn(`Skipping the tests that need ${name}: ${MISSING_PROMETHEUS}`);
  return describe.skip;
}
