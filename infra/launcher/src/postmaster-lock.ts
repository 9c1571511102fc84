import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export type LeftoverOutcome = 'none' | 'removed-stale-pid-file' | 'stopped-leftover-server';

export interface LeftoverChecks {
  /** True when pid is a running postgres process. */
  isPostgres: (pid: number) => boolean;
  /** Asks pid for a fast shutdown (SIGINT: open transactions roll back, data is flushed). */
  stop: (pid: number) => void;
  stopTimeoutMs?: number;
}

/**
 * Makes the cluster in dataDir startable after a launcher that was killed instead of stopped.
 * Postgres refuses to start while postmaster.pid names a live process; such a file is left behind
 * by a killed server (its pid may since belong to another program), and a killed launcher can leave
 * its server running. The caller holds the data folder's launcher lock, so no other start uses this
 * cluster: a server still running on it is a leftover and is shut down, a file naming anything else
 * is removed.
 */
export async function clearLeftoverPostmaster(
  dataDir: string,
  checks: LeftoverChecks = { isPostgres: isPostgresProcess, stop: (pid) => process.kill(pid, 'SIGINT') },
): Promise<LeftoverOutcome> {
  const file = path.join(dataDir, 'postmaster.pid');
  const pid = readPostmasterPid(file);
  if (pid === undefined) return 'none';
  if (!checks.isPostgres(pid)) {
    rmSync(file, { force: true });
    return 'removed-stale-pid-file';
  }
  checks.stop(pid);
  const deadline = Date.now() + (checks.stopTimeoutMs ?? 30_000);
  while (checks.isPostgres(pid)) {
    if (Date.now() > deadline)
      throw new Error(
        `a Postgres server (pid ${pid}) left by an earlier start still runs on ${dataDir} and did not stop`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 'stopped-leftover-server';
}

/** The server's pid: the first line of postmaster.pid (a format Postgres documents). */
export function readPostmasterPid(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n')[0].trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Whether pid runs the postgres program: its name from /proc on Linux, from ps elsewhere. */
export function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let name: string;
  try {
    // A zombie has ended; it only waits for its parent to collect it. The state follows the name.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    name = spawnSync('ps', ['-p', String(pid), '-o', 'comm='], { encoding: 'utf8' }).stdout?.trim() ?? '';
  }
  return path.basename(name) === 'postgres';
}
