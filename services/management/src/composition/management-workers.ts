import type { Logger } from '@trackline/platform';
import type { ManagementConfig } from '../config/management-config';
import type { DataLifecycleObserver } from '../data-lifecycle/data-lifecycle.job';
import { startConversionExporter } from './start-conversion-exporter';
import { startDataLifecycle } from './start-data-lifecycle';
import { startNotificationWorker, type RunningNotificationWorker } from './start-notification-worker';
import { createMonthlyReportMailing } from './monthly-report-composition';
import { startMonthlyReportSchedule } from './start-monthly-report-schedule';
import type { PoolExhaustionObserver } from '../pool-telemetry/pool-telemetry.rollup';
import { startPoolTelemetry } from './start-pool-telemetry';
import type { OutboxBell } from '../db/outbox-bell';

// Composition root, the background work beside the HTTP app (docs/architecture.md, Composition).
// Each worker opens its own pool (composition/management-connections.ts); the customer-seen
// consumer runs inside the HTTP app, on the app's stores.

export interface RunningWorkers {
  /**
   * Stops the report schedule, the notification worker, the data lifecycle job, the pool
   * telemetry rollup and the conversion exporter, in that order.
   */
  stop(): Promise<void>;
}

/** The notification worker as every process runs it: e-mail, SMS, webhooks and the monthly report e-mail. */
export function startNotifications(
  config: ManagementConfig,
  logger: Logger,
  bell?: OutboxBell,
): Promise<RunningNotificationWorker> {
  return startNotificationWorker({
    config,
    logger,
    composers: (dataSource) => createMonthlyReportMailing(dataSource, config).composers,
    bell,
  });
}

/** Everything the service process runs besides answering requests. */
export async function startManagementWorkers(
  config: ManagementConfig,
  logger: Logger,
  observer: DataLifecycleObserver & PoolExhaustionObserver,
  /** The same bell the app's call ingestion rings (db/outbox-bell.ts). */
  bell?: OutboxBell,
): Promise<RunningWorkers> {
  const notifications = await startNotifications(config, logger, bell);
  const reports = await startMonthlyReportSchedule({ config, logger });
  const lifecycle = await startDataLifecycle({ config, logger, observer });
  const poolTelemetry = await startPoolTelemetry({ config, logger, observer });
  const conversions = await startConversionExporter(config, logger, bell);
  return {
    stop: () =>
      Promise.resolve(reports?.stop())
        .finally(() => notifications.stop())
        .finally(() => lifecycle.stop())
        .finally(() => poolTelemetry.stop())
        .finally(() => conversions.stop()),
  };
}
