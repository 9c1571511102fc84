import type { Env, Logger, RedisConnection } from '@trackline/platform';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { loadManagementConfig, type ManagementConfig } from '../config/management-config';
import type { CdrPartitionsStore } from '../cdrs/cdr-partitions.store';
import { createDataLifecycle, createPrivacyErasure } from '../composition/data-lifecycle-composition';
import { createCliRedis, openMainDatabase } from '../composition/management-connections';
import { createManagementCore, type ManagementCore } from '../composition/management-root';
import type { ManagementServices } from '../composition/management-services';
import { storesOn, type StoresOnManager } from '../composition/stores-on-manager';
import type { DataLifecycleService } from '../data-lifecycle/data-lifecycle.service';
import type { PrivacyErasureService } from '../data-lifecycle/privacy-erasure.service';
import type { ProjectionHealer } from '../projections/projection-healer';
import type { CliOutput } from './cli-output';

/**
 * What every command gets: the config, the output, and the composition root's objects
 * (docs/architecture.md, Composition) on short-lived connections.
 */
export interface CliContext {
  output: CliOutput;
  /** Read from the environment on first use, so `--help` works even with a broken environment. */
  config(): ManagementConfig;
  /**
   * Connects to Postgres and Redis, runs `work`, and always disconnects, so the process can exit.
   * Changes are projected into Redis after each commit; a Redis failure then is a warning on stderr.
   */
  withServices<T>(work: (services: ManagementServices) => Promise<T>): Promise<T>;
  /** The same connections, for projections:rebuild (the one full-rebuild path, marker included). */
  withProjections<T>(work: (projections: ProjectionHealer) => Promise<T>): Promise<T>;
  /**
   * Postgres only, for commands that change nothing Redis projects (the notification outbox), with
   * the composition root's stores on it.
   */
  withDatabase<T>(work: (dataSource: DataSource, stores: StoresOnManager) => Promise<T>): Promise<T>;
  /**
   * Postgres only, with the data lifecycle built on it (docs/privacy.md): the partitions and the
   * daily job's service, for cdrs:partitions and data-lifecycle:run.
   */
  withDataLifecycle<T>(
    monthsAhead: number,
    work: (lifecycle: { partitions: CdrPartitionsStore; service: DataLifecycleService }) => Promise<T>,
  ): Promise<T>;
  /** Postgres and Redis, for privacy:erase (call attributions live in Redis). */
  withPrivacyErasure<T>(work: (erasure: PrivacyErasureService) => Promise<T>): Promise<T>;
}

export function createCliContext(env: Env, output: CliOutput): CliContext {
  let config: ManagementConfig | undefined;
  const context: CliContext = {
    output,
    config: () => (config ??= loadManagementConfig(env)),
    withServices: (work) => withConnections(context.config(), output, ({ core }) => work(core.services)),
    withProjections: (work) =>
      withConnections(context.config(), output, ({ core }) => work(core.projectionHealer)),
    withPrivacyErasure: (work) =>
      withConnections(context.config(), output, ({ dataSource, redis }) =>
        work(createPrivacyErasure(dataSource, redis, context.config().redis.keyPrefix)),
      ),
    withDataLifecycle: (monthsAhead, work) =>
      context.withDatabase((dataSource) => {
        const { partitions, service } = createDataLifecycle(dataSource, {
          monthsAhead,
          cdrChangeRetentionDays: context.config().dataLifecycle.cdrChangeRetentionDays,
          hourUtc: context.config().dataLifecycle.hourUtc,
          // The CLI prints its own lines; the job's log lines are not the operator's business here.
          logger: pino({ level: 'silent' }),
        });
        return work({ partitions, service });
      }),
    withDatabase: async (work) => {
      const dataSource = await openMainDatabase(context.config());
      try {
        return await work(dataSource, storesOn(dataSource.manager));
      } finally {
        await dataSource.destroy();
      }
    },
  };
  return context;
}

interface Connections {
  dataSource: DataSource;
  redis: RedisConnection;
  core: ManagementCore;
}

async function withConnections<T>(
  config: ManagementConfig,
  output: CliOutput,
  work: (connections: Connections) => Promise<T>,
): Promise<T> {
  const logger = warningsTo(output);
  const dataSource = await openMainDatabase(config);
  // Connection chatter (including the close at the end) is not the operator's business; a
  // projection that could not be written is, and is logged at error level.
  const redis = createCliRedis(config, logger.child({}, { level: 'error' }));
  try {
    const core = createManagementCore({ config, dataSource, redis, logger });
    return await work({ dataSource, redis, core });
  } finally {
    redis.disconnect();
    await dataSource.destroy();
  }
}

/** Errors as one readable warning line each on stderr; the operator is not reading JSON logs. */
function warningsTo(output: CliOutput): Logger {
  return pino(
    { level: 'error', base: undefined, timestamp: false },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
        const cause = entry.err?.message === undefined ? '' : ` (${entry.err.message})`;
        output.err(`warning: ${entry.msg ?? ''}${cause}`);
      },
    },
  );
}
