import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { SignedRequest } from './bench-load';

/** A server under test, in a child process of its own so it has its own event loop and core time. */
export interface ServerUnderTest {
  name: 'bare' | 'minimal' | 'service';
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

export interface ServerSettings {
  redisUrl: string;
  keyPrefix: string;
  serviceLogLevel: string;
  cpuProfileDir: string | undefined;
}

const STOP_TIMEOUT_MS = 10_000;

/** The baseline: dist-test/bench/bare-process.js; `minimal` starts the minimal bare server instead. */
export async function startBareServer(
  settings: ServerSettings,
  kind: 'bare' | 'minimal' = 'bare',
): Promise<ServerUnderTest> {
  const port = await freePort();
  const args = [join(__dirname, 'bare-process.js'), String(port), settings.redisUrl, settings.keyPrefix];
  if (kind === 'minimal') args.push('minimal');
  const child = spawn(process.execPath, [...profiling(settings), ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return underTest(kind, child, port);
}

/**
 * The real service as deployed: its main.js (dist-test/src/, built from the same sources with the
 * same compiler options as dist/) configured through its environment. Its stdout (the access log)
 * goes to /dev/null, so the service pays for writing it and the load generator pays nothing for
 * reading it.
 */
export async function startService(settings: ServerSettings): Promise<ServerUnderTest> {
  const port = await freePort();
  const child = spawn(process.execPath, [...profiling(settings), join(__dirname, '..', 'src', 'main.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      REPLACEMENT_HOST: '127.0.0.1',
      REPLACEMENT_PORT: String(port),
      REDIS_URL: settings.redisUrl,
      REDIS_KEY_PREFIX: settings.keyPrefix,
      LOG_LEVEL: settings.serviceLogLevel,
    },
  });
  return underTest('service', child, port);
}

// Each profile file is named after its process id, which the run prints.
function profiling(settings: ServerSettings): string[] {
  return settings.cpuProfileDir === undefined
    ? []
    : ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfileDir}`];
}

function underTest(name: ServerUnderTest['name'], child: ChildProcess, port: number): ServerUnderTest {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (!stopping && code !== 0)
      process.stderr.write(`${name} server exited early (code ${code}, signal ${signal})\n`);
  });
  let stopping = false;
  return {
    name,
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGTERM lets the service shut down gracefully, which is also when --cpu-prof writes its file.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port free on loopback right now, for a server the bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Sends a real request until it succeeds: the process listens and its Redis client is ready. */
export async function waitUntilServing(
  server: ServerUnderTest,
  requests: SignedRequest[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const { body, signature } = requests[0]!;
  for (;;) {
    try {
      const response = await fetch(`${server.baseUrl}/dynamic-numbers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sign': signature },
        body,
      });
      const answer = (await response.json()) as { success?: boolean };
      if (answer.success === true) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${server.name} server did not serve within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
