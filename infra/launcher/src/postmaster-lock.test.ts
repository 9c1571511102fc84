import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clearLeftoverPostmaster, isPostgresProcess, readPostmasterPid } from './postmaster-lock';

describe('clearLeftoverPostmaster', () => {
  let dataDir: string;
  let pidFile: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'trackline-postmaster-'));
    pidFile = path.join(dataDir, 'postmaster.pid');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('does nothing without a postmaster.pid', async () => {
    const stop = jest.fn();
    expect(await clearLeftoverPostmaster(dataDir, { isPostgres: () => true, stop })).toBe('none');
    expect(stop).not.toHaveBeenCalled();
  });

  it('removes a postmaster.pid whose pid now belongs to another program (or to none)', async () => {
    // The pid of this jest worker: alive, but not postgres.
    writeFileSync(pidFile, `${process.pid}\n${dataDir}\n1700000000\n5433\n`);
    const stop = jest.fn();
    expect(await clearLeftoverPostmaster(dataDir, { isPostgres: isPostgresProcess, stop })).toBe(
      'removed-stale-pid-file',
    );
    expect(existsSync(pidFile)).toBe(false);
    expect(stop).not.toHaveBeenCalled();
  });

  it('shuts a server still running on the folder down and waits until it has gone', async () => {
    writeFileSync(pidFile, '4242\n');
    let running = true;
    const stop = jest.fn(() => setTimeout(() => (running = false), 50));
    const outcome = await clearLeftoverPostmaster(dataDir, { isPostgres: () => running, stop });
    expect(outcome).toBe('stopped-leftover-server');
    expect(stop).toHaveBeenCalledWith(4242);
    expect(running).toBe(false);
  });

  it('says so when the leftover server does not stop', async () => {
    writeFileSync(pidFile, '4242\n');
    await expect(
      clearLeftoverPostmaster(dataDir, { isPostgres: () => true, stop: () => undefined, stopTimeoutMs: 200 }),
    ).rejects.toThrow(/pid 4242.*did not stop/);
  });
});

describe('readPostmasterPid', () => {
  it('reads the first line, and nothing from a missing or garbled file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trackline-postmaster-'));
    const file = path.join(dir, 'postmaster.pid');
    expect(readPostmasterPid(file)).toBeUndefined();
    writeFileSync(file, 'x\n');
    expect(readPostmasterPid(file)).toBeUndefined();
    writeFileSync(file, '123\n/data\n');
    expect(readPostmasterPid(file)).toBe(123);
    rmSync(dir, { recursive: true, force: true });
  });
});
