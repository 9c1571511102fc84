import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger, StoreOutages } from '@trackline/platform';
import { openWorkerDatabase } from './management-connections';
import type { ManagementConfig } from '../config/management-config';
import { configuredEmailChannel } from '../notifications/email.channel';
import type { DataSource } from 'typeorm';
import { NotificationWorker, type NotificationWorkerDeps } from '../notifications/notification-worker';
import { storesOn } from './stores-on-manager';
import { SqlRecordingReader } from '../cdrs/recording.reader';
import { SmsChannel } from '../notifications/sms.channel';
import { createWebhookDispatcher } from './start-webhook-dispatcher';
import type { OutboxBell } from '../db/outbox-bell';

export interface StartNotificationWorkerDeps {
  config: Pick<
    ManagementConfig,
    | 'databaseUrl'
    | 'databasePreparedStatements'
    | 'notifications'
    | 'smtpUrl'
    | 'smtpFrom'
    | 'smsGatewayUrl'
    | 'webhooks'
  >;
  logger: Logger;
  /** Messages built when sent (the monthly report), on the worker's own DataSource. */
  composers?: (dataSource: DataSource) => NotificationWorkerDeps['composers'];
  /** Rung by this process's transactions that queued notifications or webhooks. */
  bell?: OutboxBell;
  /** The thread's store outages, told once for all its workers (docs/operations.md, Store outages). */
  outages?: StoreOutages<string>;
}

export interface RunningNotificationWorker {
  /** Finishes the round in flight, then closes the SMTP transport and the worker's database pool. */
  stop(): Promise<void>;
}

const BATCH_SIZE = 10;

/**
 * The one way a notification worker is built: the service's loop (below) and `reports:send`, which
 * sends the reports it queued at once (cli/report-commands.ts).
 */
export function createNotificationWorker(deps: {
  dataSource: DataSource;
  config: Pick<ManagementConfig, 'notifications'>;
  channels: NotificationWorkerDeps['channels'];
  logger: Logger;
  composers?: NotificationWorkerDeps['composers'];
  workerId: string;
  outages?: StoreOutages<string>;
}): NotificationWorker {
  const { dataSource, config } = deps;
  return new NotificationWorker(
    {
      store: storesOn(dataSource.manager).outbox,
      channels: deps.channels,
      recordings: new SqlRecordingReader(dataSource.manager),
      logger: deps.logger,
      outages: deps.outages,
      clock: () => new Date(),
      composers: deps.composers,
    },
    {
      workerId: deps.workerId,
      maxAttempts: config.notifications.maxAttempts,
      baseDelayMs: config.notifications.baseDelayMs,
      leaseMs: config.notifications.leaseMs,
      pollMs: config.notifications.pollMs,
      batchSize: BATCH_SIZE,
    },
  );
}

/**
 * Builds the channels from configuration and starts delivering the outbox (docs/notifications.md),
 * on a pool of its own (composition/management-connections.ts).
 */
export async function startNotificationWorker(
  deps: StartNotificationWorkerDeps,
): Promise<RunningNotificationWorker> {
  const { config } = deps;
  const dataSource = await openWorkerDatabase(config, 'notifications');
  const email = configuredEmailChannel(config);
  const sms = config.smsGatewayUrl === undefined ? null : new SmsChannel(config.smsGatewayUrl);
  if (email === null || sms === null) {
    deps.logger.warn(
      { email: email !== null, sms: sms !== null },
      'notification channel(s) not configured (SMTP_URL / SMS_GATEWAY_URL): those notifications are logged only',
    );
  }
  const workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const worker = createNotificationWorker({
    dataSource,
    config,
    channels: { email, sms },
    logger: deps.logger,
    composers: deps.composers?.(dataSource),
    workerId,
    outages: deps.outages,
  });
  worker.start();
  // Partner webhooks (docs/webhooks.md): their own outbox and loop, so a slow receiver never holds
  // up e-mail and SMS, nor they it.
  const webhooks = createWebhookDispatcher({
    dataSource,
    config,
    workerId,
    logger: deps.logger,
    outages: deps.outages,
  });
  webhooks.start();
  const unlisten = [
    deps.bell?.listen('notifications', () => worker.wake()),
    deps.bell?.listen('webhooks', () => webhooks.wake()),
  ];
  return {
    stop: async () => {
      for (const stopListening of unlisten) stopListening?.();
      await Promise.all([worker.stop(), webhooks.stop()]);
      email?.close();
      await dataSource.destroy();
    },
  };
}
