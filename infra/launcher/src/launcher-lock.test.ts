import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireDataDirLock } from './launcher-lock';

describe('acquireDataDirLock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'trackline-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a data folder that a running launcher holds', () => {
    // The parent of this test process certainly runs.
    writeFileSync(path.join(dir, 'launcher.pid'), `${process.ppid}\n`);
    expect(() => acquireDataDirLock(dir, process.pid)).toThrow(
      `Another pnpm start (pid ${process.ppid}) is using ${dir}`,
    );
  });

  it('takes over the lock of a launcher that no longer runs, and releases it', () => {
    writeFileSync(path.join(dir, 'launcher.pid'), '2147483646\n');
    const release = acquireDataDirLock(dir, process.pid);
    expect(readFileSync(path.join(dir, 'launcher.pid'), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(path.join(dir, 'launcher.pid'))).toBe(false);
  });
});
