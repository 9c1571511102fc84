import { StoreOutages, type Logger } from '@trackline/platform';
import { unreachableStore, type ManagementStore } from '../http/error-handler';
import type { ManagementConfig } from '../config/management-config';
import type { OutboxBell } from '../db/outbox-bell';
import { startConversionExporter } from './start-conversion-exporter';
import { createMonthlyReportMailing } from './monthly-report-composition';
import { startNotificationWorker, type RunningNotificationWorker } from './start-notification-worker';

/** The notification worker as every process runs it: e-mail, SMS, webhooks and the monthly report e-mail. */
export function startNotifications(
  config: ManagementConfig,
  logger: Logger,
  bell?: OutboxBell,
  outages?: StoreOutages<string>,
): Promise<RunningNotificationWorker> {
  return startNotificationWorker({
    config,
    logger,
    composers: (dataSource) => createMonthlyReportMailing(dataSource, config).composers,
    bell,
    outages,
  });
}

export interface RunningOutboxDeliveries {
  /** Stops the notification worker (with the webhook dispatcher), then the conversion exporter. */
  stop(): Promise<void>;
}

/**
 * The loops that deliver the outboxes a call's transaction fills: notifications, partner webhooks
 * and conversions. The service runs them on a thread of their own (composition/delivery-thread.ts).
 */
export async function startOutboxDeliveries(
  config: ManagementConfig,
  logger: Logger,
  bell?: OutboxBell,
): Promise<RunningOutboxDeliveries> {
  // One story per outage for the loops of this thread: the first round refused tells it, the first
  // round that works again ends it (docs/operations.md, Store outages).
  const outages = new StoreOutages<ManagementStore>({ log: logger, storeOf: unreachableStore });
  const notifications = await startNotifications(config, logger, bell, outages);
  const conversions = await startConversionExporter(config, logger, bell, outages).catch(
    async (error: unknown) => {
      await notifications.stop();
      throw error;
    },
  );
  return { stop: () => notifications.stop().finally(() => conversions.stop()) };
}
