import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { MONITORING_DIR, RULES_FILE } from './rules-file';
import { describeWithBinary } from './test-support/prometheus-binaries';
import { ruleTestFiles } from './test-support/rule-tests';

const run = promisify(execFile);
// The 3-day windows make a test file take 20 s and more on a shared 2-core machine.
const PROMTOOL_TIMEOUT_MS = 180_000;

/** promtool's exit code and everything it printed, so a failure shows promtool's own report. */
async function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('promtool', args, {
      cwd: MONITORING_DIR,
      timeout: PROMTOOL_TIMEOUT_MS,
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${String(error)}`,
    };
  }
}

describeWithBinary('promtool')('the Prometheus rules (promtool)', () => {
  it('pass promtool check rules', async () => {
    const result = await promtool('check', 'rules', RULES_FILE);
    expect(result).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  it.each(ruleTestFiles().map((file) => [path.basename(file), file]))(
    'pass their unit tests in tests/%s',
    async (_name, file) => {
      const result = await promtool('test', 'rules', file);
      expect(result).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
    },
    PROMTOOL_TIMEOUT_MS,
  );
});
