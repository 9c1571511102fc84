import { readFileSync } from 'node:fs';
import type { Client } from 'pg';

/**
 * CPU time (user + system, µs) of a process so far, from /proc: unlike wall-clock timings it does
 * not grow when other processes take the core, so it compares two runs on a busy machine.
 */
export function processCpuUsec(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
// USER_HZ, 100 on Linux.
const CLOCK_TICKS_PER_SECOND = 100;

/** Clock ticks of all cores together so far: busy (anything but idle and waiting for I/O) and in all. */
export interface MachineTicks {
  busy: number;
  total: number;
}

/**
 * The machine's line of /proc/stat (`cpu  user nice system idle iowait irq softirq steal …`, in
 * clock ticks summed over the cores). Time stolen by the hypervisor counts as busy: the cores were
 * not ours to use.
 */
export function parseMachineTicks(procStat: string): MachineTicks {
  const line = procStat.split('\n').find((entry) => entry.startsWith('cpu '));
  if (line === undefined) throw new Error('/proc/stat has no line for all cores');
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

function machineTicks(): MachineTicks | null {
  try {
    return parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** What a phase cost per call, in CPU and in Postgres transactions. */
export interface CpuPerCall {
  /** The management process (requests and its workers alike). */
  serviceMs: number;
  /** The Postgres backends serving the bench's database (not the server's own background processes). */
  postgresMs: number;
  /** Committed transactions of the bench's database, the workers' included. */
  transactions: number;
  /** The bench's own processes (the switch's client, the receivers of webhooks, e-mail and GA4 hits). */
  benchMs: number;
  /** How busy the machine's cores were through the phase, 0 to 1, everything on it included. */
  machineBusy: number;
}

/**
 * Starts counting the CPU of the service, of its database's Postgres backends and of the bench's
 * own processes, and how busy the whole machine is; `stop(calls)` answers the cost per call since.
 * Needs Postgres on this machine (its backends' /proc entries).
 */
export async function startCpuMeter(
  admin: Client,
  database: string,
  servicePid: number,
  benchPids: readonly number[],
): Promise<{ stop(calls: number): Promise<CpuPerCall> }> {
  const before = await backendsCpu(admin, database);
  const serviceBefore = processCpuUsec(servicePid);
  const benchCpu = () => benchPids.reduce((sum, pid) => sum + processCpuUsec(pid), 0);
  const benchBefore = benchCpu();
  const machineBefore = machineTicks();
  const transactionsBefore = await committed(admin, database);
  return {
    stop: async (calls) => {
      const after = await backendsCpu(admin, database);
      let postgres = 0;
      // A backend that started meanwhile counts whole; one that ended meanwhile is lost (rare: pools keep theirs).
      for (const [pid, usec] of after) postgres += usec - (before.get(pid) ?? 0);
      const machineAfter = machineTicks();
      return {
        serviceMs: (processCpuUsec(servicePid) - serviceBefore) / 1000 / calls,
        postgresMs: postgres / 1000 / calls,
        transactions: ((await committed(admin, database)) - transactionsBefore) / calls,
        benchMs: (benchCpu() - benchBefore) / 1000 / calls,
        machineBusy:
          machineBefore === null || machineAfter === null
            ? NaN
            : (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
      };
    },
  };
}

async function backendsCpu(admin: Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return new Map(
    rows.map(({ pid }) => [pid, processCpuUsec(pid)] as const).filter(([, usec]) => !Number.isNaN(usec)),
  );
}

async function committed(admin: Client, database: string): Promise<number> {
  // The statistics are a snapshot per transaction: clear it so each read is fresh.
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ xact_commit: string }>(
    'SELECT xact_commit FROM pg_stat_database WHERE datname = $1',
    [database],
  );
  return Number(rows[0]?.xact_commit ?? 0);
}
