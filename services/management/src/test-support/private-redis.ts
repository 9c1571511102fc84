import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@trackline/test-harness';

const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

export interface PrivateRedis {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A redis-server of the caller's own on loopback, without persistence: the whole-system bench's (its
 * `INFO commandstats` count only the bench's processes, not the tests other people run on the shared
 * one), and the data-loss tests', which stop it and start an empty one on the same `port`.
 */
export async function startPrivateRedis(binary: string, port?: number): Promise<PrivateRedis> {
  port ??= await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'tl-bench-redis-'));
  // prettier-ignore
  const child = spawn(binary, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', '',
  ], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`${binary} not ready within ${READY_TIMEOUT_MS} ms: ${output}`)),
        READY_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer): void => {
        output = (output + chunk.toString()).slice(-2000);
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${binary} exited with ${code}: ${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  // Its log is not read any more; keep the pipes drained.
  child.stdout!.resume();
  child.stderr!.resume();
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, stop };
}
