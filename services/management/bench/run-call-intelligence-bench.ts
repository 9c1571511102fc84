import {
  classifyCall,
  DEFAULT_CLASSIFICATION_RULES,
  DEFAULT_REDACTION,
  redactSegments,
  type CallSignals,
} from '@trackline/domain';
import { EnvReader } from '@trackline/platform';
import {
  microsecondsPerCall,
  minimalRequestWork,
  writeBenchResults,
} from '@trackline/replacement/dist-test/bench';
import { transcriptOf } from '../src/call-intelligence/transcription-worker';
import { DEFAULT_CALL_INTELLIGENCE } from '../src/partners/call-intelligence-settings';
import { conversation, rulesAtTheLimit } from './call-intelligence-fixtures';
import { summarize } from './bench-stats';

const SIGNALS: CallSignals = { voicemail: false, spam: false, durationSeconds: 1800, firstTimeCaller: true };
/** docs/benchmarks.md, Targets. */
const CLASSIFICATION_TARGET_MS = 5;
const OWN_CPU_TARGET_MS = 5;

/**
 * The call-intelligence part of `pnpm bench` (docs/benchmarks.md, Call intelligence): the CPU a
 * 30-minute transcript costs us in one process — redaction, and classification against the built-in
 * rules and against rule lists at their limits — timed BENCH_CI_RUNS times each, beside the minimal
 * server's own work per request on this machine.
 */
async function main(): Promise<void> {
  const read = new EnvReader(process.env);
  const runs = read.integer('BENCH_CI_RUNS', 200, { min: 10, max: 100_000 });
  const minutes = read.integer('BENCH_CI_MINUTES', 30, { min: 1, max: 240 });
  read.done();
  const segments = conversation(minutes);
  const words = segments.reduce((sum, segment) => sum + segment.text.split(/\s+/).length, 0);
  const limits = rulesAtTheLimit();
  const minimal = minimalRequestWork();
  await microsecondsPerCall(minimal, 20_000);

  const timed = (work: () => unknown) => {
    for (let i = 0; i < Math.min(20, runs); i++) work();
    return summarize(
      Array.from({ length: runs }, () => {
        const started = process.hrtime.bigint();
        work();
        return Number(process.hrtime.bigint() - started) / 1e6;
      }),
    );
  };
  const redaction = timed(() => redactSegments(segments, DEFAULT_REDACTION, 'en'));
  const defaults = timed(() => classifyCall(segments, DEFAULT_CLASSIFICATION_RULES, SIGNALS));
  const atLimits = timed(() => classifyCall(segments, limits, SIGNALS));
  // A transcribed call's own work beyond the engine (the worker's transcriptOf, then the JSON the
  // transcript is stored as): a typical three-minute call, and the whole transcript above.
  const context = {
    settings: DEFAULT_CALL_INTELLIGENCE,
    rules: DEFAULT_CLASSIFICATION_RULES,
    signals: SIGNALS,
  };
  const perCall = (heard: typeof segments) => () => {
    const done = transcriptOf(
      { language: 'en', durationSeconds: 180, segments: heard },
      'whisper-1',
      context,
    );
    return JSON.stringify(done.segments).length + JSON.stringify(done.reasons).length;
  };
  const typicalCall = timed(perCall(conversation(3)));
  const longCall = timed(perCall(segments));
  const minimalMicros = await microsecondsPerCall(minimal, 100_000);

  const rows: Array<[string, { p50: number; p95: number }]> = [
    ['redaction', redaction],
    ['classification, built-in rules', defaults],
    ['classification, 1,000 phrases', atLimits],
    ['own CPU, a 3-minute call', typicalCall],
    [`own CPU, a ${minutes}-minute call`, longCall],
  ];
  process.stdout.write(
    `\n${minutes}-minute transcript: ${segments.length} segments, ${words} words; ${runs} runs each\n`,
  );
  for (const [name, figures] of rows)
    process.stdout.write(
      `  ${name.padEnd(32)} p50 ${figures.p50.toFixed(2)} ms   p95 ${figures.p95.toFixed(2)} ms\n`,
    );
  process.stdout.write(`  minimal server's own work: ${minimalMicros.toFixed(2)} µs per request\n`);

  const targets = [
    {
      target: `our own CPU per transcribed call (3 minutes), p50 ≤ ${OWN_CPU_TARGET_MS} ms`,
      met: typicalCall.p50 <= OWN_CPU_TARGET_MS,
    },
    {
      target: `classification of a ${minutes}-minute transcript, built-in rules, p50 ≤ ${CLASSIFICATION_TARGET_MS} ms`,
      met: defaults.p50 <= CLASSIFICATION_TARGET_MS,
    },
    {
      target: `classification of a ${minutes}-minute transcript, 1,000 phrases, p50 ≤ ${CLASSIFICATION_TARGET_MS} ms`,
      met: atLimits.p50 <= CLASSIFICATION_TARGET_MS,
    },
  ];
  const file = await writeBenchResults('call-intelligence', {
    minutes,
    segments: segments.length,
    words,
    runs,
    redaction,
    classification: { builtIn: defaults, atLimits },
    ownCpuPerCall: { threeMinutes: typicalCall, whole: longCall },
    minimalServerMicrosPerRequest: minimalMicros,
    targets,
  });
  const missed = targets.filter((target) => !target.met);
  process.stdout.write(
    `${missed.length === 0 ? 'every target met' : `missed: ${missed.map((t) => t.target).join('; ')}`}\n(results: ${file})\n`,
  );
  process.exitCode = missed.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`call-intelligence bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
