import type { Env } from '@trackline/platform';
import { loadManagementConfig, type ManagementConfig } from '../config/management-config';
import { createManagementServices, type ManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { createDataSource } from '../db/data-source';
import type { CliOutput } from './cli-output';

/** What every command gets: the config, the output, and services on a short-lived connection. */
export interface CliContext {
  output: CliOutput;
  /** Read from the environment on first use, so `--help` works even with a broken environment. */
  config(): ManagementConfig;
  /** Connects, runs `work`, and always disconnects, so the process can exit. */
  withServices<T>(work: (services: ManagementServices) => Promise<T>): Promise<T>;
}

export function createCliContext(env: Env, output: CliOutput): CliContext {
  let config: ManagementConfig | undefined;
  const context: CliContext = {
    output,
    config: () => (config ??= loadManagementConfig(env)),
    async withServices(work) {
      const dataSource = createDataSource(context.config().databaseUrl);
      await dataSource.initialize();
      try {
        return await work(createManagementServices(createManagementStores(dataSource), context.config()));
      } finally {
        await dataSource.destroy();
      }
    },
  };
  return context;
}
