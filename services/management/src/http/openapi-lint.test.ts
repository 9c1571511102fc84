import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '../../../..');
const REDOCLY = require.resolve('@redocly/cli/bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{
    ruleId: string;
    severity: string;
    message: string;
    location: Array<{ pointer: string }>;
  }>;
}

/**
 * Both API documents pass a real OpenAPI linter (Redocly CLI, its recommended rules) with no
 * errors, and every example validates against its schema (docs/testing.md, API documents).
 * Requests the services must refuse live under `x-invalid-examples`, outside that check.
 */
describe.each(['management.yaml', 'replacement.yaml'])('docs/openapi/%s', (file) => {
  it('passes redocly lint: no errors, every example matches its schema', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', join('docs/openapi', file), '--format=json'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
    const summary = (ruleId?: string) =>
      report.problems
        .filter((problem) =>
          ruleId === undefined ? problem.severity === 'error' : problem.ruleId === ruleId,
        )
        .map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(summary()).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(summary('no-invalid-media-type-examples')).toEqual([]);
  }, 60_000);
});
