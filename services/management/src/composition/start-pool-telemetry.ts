import type { Logger } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import { PoolCallsReader } from '../cdrs/pool-calls.reader';
import { createPoolTelemetryRedis, openWorkerDatabase } from './management-connections';
import type { ManagementConfig } from '../config/management-config';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { storesOn } from './stores-on-manager';
import { PoolStatsReader, type PoolStatsRedis } from '../pool-telemetry/pool-stats.reader';
import { PoolTelemetryJob } from '../pool-telemetry/pool-telemetry.job';
import { PoolTelemetryRollup, type PoolExhaustionObserver } from '../pool-telemetry/pool-telemetry.rollup';
import { PoolTelemetryStore } from '../pool-telemetry/pool-telemetry.store';

export interface RunningPoolTelemetry {
  /** Waits for a run in flight, then closes the job's Redis connection and database pool. */
  stop(): Promise<void>;
}

/** The rollup on a database pool and a Redis connection; the service's job and the tests build it here. */
export function createPoolTelemetryRollup(deps: {
  dataSource: DataSource;
  redis: PoolStatsRedis;
  keyPrefix: string;
  observer?: PoolExhaustionObserver;
  logger: Logger;
}): PoolTelemetryRollup {
  const { dataSource } = deps;
  const manager = dataSource.manager;
  return new PoolTelemetryRollup({
    partners: storesOn(manager).partners,
    stats: new PoolStatsReader(deps.redis, deps.keyPrefix),
    calls: new PoolCallsReader(manager),
    store: new PoolTelemetryStore(manager),
    exhaustion: typeormUnitOfWork(dataSource, (transaction) => ({
      telemetry: new PoolTelemetryStore(transaction),
      webhooks: storesOn(transaction).webhookEvents,
    })),
    observer: deps.observer,
    logger: deps.logger,
  });
}

/** The rollup as the service process runs it, on a pool and a Redis connection of its own. */
export async function startPoolTelemetry(deps: {
  config: Pick<ManagementConfig, 'databaseUrl' | 'databasePreparedStatements' | 'redis' | 'poolTelemetry'>;
  logger: Logger;
  observer?: PoolExhaustionObserver;
  clock?: () => Date;
}): Promise<RunningPoolTelemetry> {
  const { config, logger } = deps;
  const dataSource = await openWorkerDatabase(config, 'poolTelemetry');
  const redis = createPoolTelemetryRedis(config, logger);
  const rollup = createPoolTelemetryRollup({
    dataSource,
    redis,
    keyPrefix: config.redis.keyPrefix,
    observer: deps.observer,
    logger,
  });
  const job = new PoolTelemetryJob(
    rollup,
    { intervalMs: config.poolTelemetry.intervalMs },
    deps.clock ?? (() => new Date()),
    logger,
  );
  job.start();
  return {
    stop: async () => {
      await job.stop();
      redis.disconnect();
      await dataSource.destroy();
    },
  };
}
