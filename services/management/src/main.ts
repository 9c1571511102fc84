import { ConfigError, createLogger, onShutdownSignal } from '@trackline/platform';
import { createManagementApp } from './app';
import { loadManagementConfig } from './config/management-config';
import { startNotificationWorker } from './notifications/start-notification-worker';
import { createMonthlyReportMailing } from './reports/monthly-report-mailing';
import { startMonthlyReportSchedule } from './reports/start-monthly-report-schedule';
import { startDataLifecycle } from './data-lifecycle/start-data-lifecycle';

/**
 * Process entry of the management service: config from the environment, the app, the port.
 * Migrations are not run here: `pnpm trackline migrate` does that, once, before replicas start.
 */
async function main(): Promise<void> {
  const config = loadManagementConfig(process.env);
  const logger = createLogger({ service: 'management', level: config.logLevel });
  const app = await createManagementApp(config, logger, {
    consumeCustomerEvents: true,
    sweepProviderCalls: true,
  });
  const port = await app.listen();
  logger.info({ address: `https://${config.host}:${port}` }, 'management service listening');
  const notifications = await startNotificationWorker({
    config,
    logger,
    composers: (dataSource) => createMonthlyReportMailing(dataSource, config).composers,
  });
  const reports = await startMonthlyReportSchedule({ config, logger });
  const lifecycle = await startDataLifecycle({ config, logger, observer: app.metrics });
  onShutdownSignal(logger, () =>
    app
      .close()
      .finally(() => reports?.stop())
      .finally(() => notifications.stop())
      .finally(() => lifecycle.stop()),
  );
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: one clear message, no stack.
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else
    process.stderr.write(`management service failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
