import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { pipeLines, type LineWriter } from './process-output';

export interface ChildSpec {
  /** Shown before every line the child writes. */
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Column width of the name, so lines of several children line up. */
  nameWidth?: number;
  /** Written to the child's stdin, which is then closed: settings that must not show in `ps`. */
  input?: string;
}

export interface ManagedChild {
  readonly name: string;
  readonly pid: number | undefined;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  isRunning(): boolean;
  /** SIGTERM, then SIGKILL after graceMs; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();
// Detached children do not die with the launcher; should it end without its orderly stop (a crash),
// they are killed on the way out rather than left running unseen. Each leads its own process group,
// so the group is killed: what a child started itself (the embedded Postgres server) goes too.
process.once('exit', () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
});

/** Starts a long-running child whose stdout and stderr are printed line by line with its name. */
export function startChild(spec: ChildSpec, write: LineWriter): ManagedChild {
  const child: ChildProcess = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: [spec.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C reaches only the launcher, which then stops the children in order
    // with one SIGTERM each (the services treat a second signal as "exit now").
    detached: true,
  });
  running.add(child);
  // A child that exits before reading its input must not crash the launcher with EPIPE.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(spec.input);
  const output = Promise.all([
    pipeLines(child.stdout!, spec.name, write, spec.nameWidth),
    pipeLines(child.stderr!, spec.name, write, spec.nameWidth),
  ]);
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => {
      write(`${spec.name} | could not start ${spec.command}: ${error.message}`);
      resolve('spawn-error');
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      // Let the last lines it wrote reach the terminal before anyone reports the exit.
      void output.then(() => resolve(code ?? signal ?? 'unknown'));
    });
  });
  let ended = false;
  void exited.then(() => (ended = true));
  return {
    name: spec.name,
    pid: child.pid,
    exited,
    isRunning: () => !ended,
    stop: async (graceMs = 10_000) => {
      if (ended) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end and returns what it wrote. Used for the operator CLI, whose output the
 * launcher reads (partner:list --json) or shows on failure.
 */
export async function runCommand(spec: Omit<ChildSpec, 'name' | 'nameWidth'>): Promise<CommandResult> {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const [code] = (await Promise.race([
    once(child, 'exit'),
    once(child, 'error').then(([error]) => Promise.reject(error as Error)),
  ])) as [number | null];
  return {
    code,
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr: Buffer.concat(stderr).toString('utf8'),
  };
}

export interface HealthWait {
  timeoutMs: number;
  /** Polled between attempts: a child that has died will never answer, so stop waiting. */
  isAlive: () => boolean;
  intervalMs?: number;
}

/**
 * Polls a /health URL until it answers 200. Certificates are not checked: this is the launcher
 * asking its own freshly started service on localhost, which uses a self-signed certificate.
 */
export async function waitForHealth(url: string, wait: HealthWait): Promise<void> {
  const deadline = Date.now() + wait.timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (!wait.isAlive()) throw new Error(`${url}: the process exited before answering`);
    try {
      const status = await getStatus(url, 2000);
      if (status === 200) return;
      lastProblem = `status ${status}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, wait.intervalMs ?? 250));
  }
  throw new Error(`${url} did not answer 200 within ${wait.timeoutMs} ms (${lastProblem})`);
}

function getStatus(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith('https:')
      ? https.get(url, { rejectUnauthorized: false, timeout: timeoutMs })
      : http.get(url, { timeout: timeoutMs });
    request.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
  });
}
