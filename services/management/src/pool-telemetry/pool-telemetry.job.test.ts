import { HOUR_MS, POOL_STATS_KEEP_HOURS } from '@trackline/contracts';
import { createLogger } from '@trackline/platform';
import { PoolTelemetryJob } from './pool-telemetry.job';
import type { RollupReport } from './pool-telemetry.rollup';

const logger = createLogger({ service: 'pool-telemetry-job-test', level: 'silent' });
const HOUR = 493_500;

/** A rollup that records the hour each run read from and answers as told. */
function recordingRollup(outcomes: Array<'ok' | 'partner failed' | 'threw'>) {
  const fromHours: number[] = [];
  let ran: () => void = () => undefined;
  const firstRun = new Promise<void>((resolve) => (ran = resolve));
  return {
    fromHours,
    firstRun,
    run: (_now: Date, fromHour: number): Promise<RollupReport> => {
      fromHours.push(fromHour);
      ran();
      const outcome = outcomes.shift() ?? 'ok';
      if (outcome === 'threw') return Promise.reject(new Error('Postgres away'));
      return Promise.resolve({
        partners: 2,
        hoursStored: 1,
        failedPartners: outcome === 'partner failed' ? 1 : 0,
        exhausted: [],
      });
    },
  };
}

describe('PoolTelemetryJob', () => {
  it('reads every hour Redis may hold first, then from the hour before the last successful run', async () => {
    const now = { value: new Date(HOUR * HOUR_MS + 5 * 60_000) };
    const rollup = recordingRollup(['ok', 'partner failed', 'threw', 'ok', 'ok']);
    const job = new PoolTelemetryJob(rollup, { intervalMs: 60_000 }, () => now.value, logger);
    await job.runOnce();
    now.value = new Date((HOUR + 3) * HOUR_MS);
    await job.runOnce(); // a partner failed: the window stays
    await job.runOnce(); // the run threw: the window stays
    await job.runOnce();
    await job.runOnce();
    expect(rollup.fromHours).toEqual([HOUR - POOL_STATS_KEEP_HOURS, HOUR - 1, HOUR - 1, HOUR - 1, HOUR + 2]);
  });

  it('runs on start and stops without starting another run', async () => {
    const rollup = recordingRollup([]);
    const job = new PoolTelemetryJob(
      rollup,
      { intervalMs: 3_600_000 },
      () => new Date(HOUR * HOUR_MS),
      logger,
    );
    job.start();
    await rollup.firstRun;
    await job.stop();
    expect(rollup.fromHours).toEqual([HOUR - POOL_STATS_KEEP_HOURS]);
  });
});
