import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface WorkerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/**
 * The notification worker process as main.ts starts it (notification-worker.process.ts, configured
 * from `env`), resolved once it prints `ready`. The kill tests end it with SIGKILL.
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    ['-r', path.join(__dirname, 'ts-register.js'), path.join(__dirname, 'notification-worker.process.ts')],
    { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve) =>
    lines.on('line', (line) => {
      output.push(line);
      if (line === 'ready') resolve();
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      exited.then(([code]) => {
        throw new Error(`worker process exited with ${String(code)} before ready:\n${output.join('\n')}`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`worker process not ready in 15 s:\n${output.join('\n')}`)),
          15_000,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
  return { child, output, exited };
}

/** SIGKILLs the worker processes a test started that are still running (afterAll). */
export function killLeftovers(processes: readonly WorkerProcess[]): void {
  for (const worker of processes) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  }
}

/** Polls `done` until true; past `timeoutMs`, fails with `what` and every process's output. */
export async function untilReached(
  what: string,
  done: () => boolean | Promise<boolean>,
  processes: readonly WorkerProcess[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      const logs = processes.map((worker) => worker.output.join('\n')).join('\n---\n');
      throw new Error(`${what}: not reached in ${timeoutMs} ms\n${logs}`);
    }
    await sleep(10);
  }
}
