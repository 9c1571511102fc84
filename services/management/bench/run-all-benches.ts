import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { benchResultsDir } from '@trackline/replacement/dist-test/bench';

/** One part of `pnpm bench`: a bench script run as a child process of its own. */
export interface BenchPart {
  name: string;
  script: string;
}

/** How a part ended: its exit status, or the signal that stopped it, and the targets it missed. */
export interface PartOutcome {
  name: string;
  status: number | null;
  signal: NodeJS.Signals | null;
  /** The missed targets its results file names (empty when it wrote none). */
  missed: string[];
}

/** The built bench scripts, in the order `pnpm bench` runs them. */
function benchParts(): BenchPart[] {
  return [
    { name: 'replacement', script: require.resolve('@trackline/replacement/dist-test/bench/run-bench.js') },
    { name: 'management', script: join(__dirname, 'run-bench.js') },
    { name: 'whole system', script: join(__dirname, 'run-system-bench.js') },
    { name: 'call intelligence', script: join(__dirname, 'run-call-intelligence-bench.js') },
  ];
}

/**
 * `pnpm bench` (docs/benchmarks.md): the replacement, management, whole-system and call-intelligence benches one after
 * the other, every part whatever the one before reported, so one run gives every target's verdict.
 * Each part exits 1 when one of its targets is missed or it could not run; this exits 1 when any
 * part did, and names the missed targets from the results file each part wrote. A part stopped by
 * a signal (Ctrl-C reaches every process of the terminal) ends the run.
 */
export async function runParts(
  parts: readonly BenchPart[],
  run: (part: BenchPart) => Promise<PartOutcome> = runPart,
): Promise<PartOutcome[]> {
  const outcomes: PartOutcome[] = [];
  for (const part of parts) {
    const outcome = await run(part);
    outcomes.push(outcome);
    if (outcome.signal !== null) break;
  }
  return outcomes;
}

/** The closing lines: each part's verdict, and the parts not run after an interruption. */
export function summary(parts: readonly BenchPart[], outcomes: readonly PartOutcome[]): string[] {
  return parts.map((part, i) => {
    const outcome = outcomes[i];
    if (outcome === undefined) return `${part.name}: not run`;
    if (outcome.signal !== null) return `${part.name}: stopped by ${outcome.signal}`;
    if (outcome.status === 0) return `${part.name}: every target met`;
    if (outcome.missed.length > 0) return `${part.name}: missed ${outcome.missed.join('; ')}`;
    return `${part.name}: failed (exit status ${outcome.status}; its output above says why)`;
  });
}

/**
 * The targets a results file records as missed: the replacement and whole-system benches list
 * them as `targets`, the management bench as `verdicts`, each `{ target, met }`.
 */
export function missedTargets(results: unknown): string[] {
  if (typeof results !== 'object' || results === null) return [];
  const { targets, verdicts } = results as { targets?: unknown; verdicts?: unknown };
  const checks = Array.isArray(targets) ? targets : Array.isArray(verdicts) ? verdicts : [];
  return checks.flatMap((check: unknown) => {
    const { target, met } = (check ?? {}) as { target?: unknown; met?: unknown };
    return met === false && typeof target === 'string' ? [target] : [];
  });
}

export function exitStatusOf(outcomes: readonly PartOutcome[]): number {
  return outcomes.every((outcome) => outcome.status === 0) ? 0 : 1;
}

async function runPart(part: BenchPart): Promise<PartOutcome> {
  process.stderr.write(`[bench] ${part.name}: ${part.script}\n`);
  const dir = benchResultsDir();
  const before = new Set(await resultFiles(dir));
  const { status, signal } = await new Promise<Pick<PartOutcome, 'status' | 'signal'>>((resolve, reject) => {
    const child = spawn(process.execPath, [part.script], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, stopSignal) => resolve({ status: code, signal: stopSignal }));
  });
  const written = (await resultFiles(dir)).filter((file) => !before.has(file));
  const missed: string[] = [];
  for (const file of written)
    missed.push(...missedTargets(JSON.parse(await readFile(join(dir, file), 'utf8'))));
  return { name: part.name, status, signal, missed };
}

async function resultFiles(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function main(): Promise<void> {
  const parts = benchParts();
  const outcomes = await runParts(parts);
  process.stdout.write(`\n${summary(parts, outcomes).join('\n')}\n`);
  process.exitCode = exitStatusOf(outcomes);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
