import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** `node infra/launcher/dist/start.js` run by a test, with everything it printed kept. */
export interface LauncherProcess {
  readonly pid: number;
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  /** Resolves when the output matches; rejects with the output on timeout or early exit. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** Resolves with the exit code (or signal name) once the launcher has ended. */
  readonly exited: Promise<number | string>;
}

export function spawnLauncher(entry: string, cwd: string, env: NodeJS.ProcessEnv): LauncherProcess {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so the test can end it and anything left in that group at once.
    detached: true,
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  let ended = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true;
      for (const listener of listeners) listener();
      resolve(code ?? signal ?? 'unknown');
    });
  });
  if (child.pid === undefined) throw new Error(`could not start ${entry}`);
  return {
    pid: child.pid,
    output: () => text,
    exited,
    waitForOutput: (pattern, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(text)) finish();
          else if (ended)
            finish(new Error(`the launcher exited before printing ${String(pattern)}:\n${text}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`no ${String(pattern)} within ${timeoutMs} ms:\n${text}`)),
          timeoutMs,
        );
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error === undefined) resolve();
          else reject(error);
        };
        listeners.add(check);
        check();
      }),
  };
}

/**
 * Every process below pid, read from /proc (Linux). The launcher starts the services in process
 * groups of their own, so killing the launcher's group alone would not reach them.
 */
export function descendantPids(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const parents = new Map<number, number>();
  for (const entry of entries) {
    try {
      // The command name (field 2) may hold spaces and parentheses; the parent pid follows its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), parent);
    } catch {
      // the process ended while the list was read
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [child, parent] of parents) {
      if (parent === current) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILL to a process group (or a single process when it leads none); gone already is fine. */
export function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // no such group or process: already gone
    }
  }
}

/** True when a server can listen on host:port now (nothing holds it). */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}
