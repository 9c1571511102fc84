import './tracing';
import { ConfigError, createLogger, onShutdownSignal } from '@trackline/platform';
import { createManagementApp } from './app';
import { startManagementWorkers } from './composition/management-workers';
import { loadManagementConfig } from './config/management-config';
import { OutboxBell } from './db/outbox-bell';
import { applyHeapGrowth } from './config/heap-growth';

/**
 * Process entry of the management service: config from the environment, the app, the port, the
 * workers (docs/architecture.md, Composition). Migrations are not run here: `pnpm trackline
 * migrate` does that, once, before replicas start.
 */
async function main(): Promise<void> {
  const config = loadManagementConfig(process.env);
  // Before the app and its delivery thread allocate anything (docs/operations.md, Garbage collection).
  applyHeapGrowth(config.heapGrowingPercent);
  const logger = createLogger({ service: 'management', level: config.logLevel });
  // The app's call ingestion rings the workers below when it has queued something for them.
  const outboxBell = new OutboxBell();
  const app = await createManagementApp(config, logger, {
    consumeCustomerEvents: true,
    sweepProviderCalls: true,
    autoscalePools: true,
    reconcileCarrierPurchases: true,
    outboxBell,
  });
  const port = await app.listen();
  logger.info({ address: `https://${config.host}:${port}` }, 'management service listening');
  const workers = await startManagementWorkers({
    config,
    logger,
    observer: app.metrics,
    transcription: app.metrics.transcription,
    bell: outboxBell,
    env: process.env,
    // As an uncaught error anywhere in the process would: logged, and the process ends for its
    // supervisor to restart; the undelivered rows wait in their outboxes.
    onDeliveryThreadCrash: (error) => {
      logger.fatal({ err: error }, 'delivery thread ended on an error: stopping the service');
      process.exit(1);
    },
  });
  onShutdownSignal(logger, () => app.close().finally(() => workers.stop()));
}

main().catch((error: unknown) => {
  // A bad setting is the operator's to fix: one clear message, no stack.
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else
    process.stderr.write(`management service failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
