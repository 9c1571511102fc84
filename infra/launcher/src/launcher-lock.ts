import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LauncherError } from './launcher-error';

/**
 * One launcher per data folder: two Postgres servers on the same cluster would corrupt it. The pid
 * file is taken over when the process that wrote it no longer runs (it was killed, not stopped).
 */
export function acquireDataDirLock(dataDir: string, pid: number = process.pid): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'launcher.pid');
  const holder = readPid(file);
  if (holder !== undefined && holder !== pid && isRunning(holder)) {
    throw new LauncherError(
      `Another pnpm start (pid ${holder}) is using ${dataDir}; stop it first (Ctrl-C there).`,
    );
  }
  writeFileSync(file, `${pid}\n`);
  return () => {
    if (readPid(file) === pid) rmSync(file, { force: true });
  };
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, which still means it runs.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
