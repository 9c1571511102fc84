import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { ManagementConfig } from '../config/management-config';
import { EmailChannel } from './email.channel';
import { NotificationWorker } from './notification-worker';
import { TypeormOutboxStore } from './outbox.store';
import { SqlRecordingReader } from './recording.reader';
import { SmsChannel } from './sms.channel';

export interface StartNotificationWorkerDeps {
  config: Pick<ManagementConfig, 'notifications' | 'smtpUrl' | 'smtpFrom' | 'smsGatewayUrl'>;
  dataSource: DataSource;
  logger: Logger;
}

const BATCH_SIZE = 10;

/** Builds the channels from configuration and starts delivering; stop() at shutdown. */
export function startNotificationWorker(deps: StartNotificationWorkerDeps): { stop(): Promise<void> } {
  const { config } = deps;
  const email =
    config.smtpUrl === undefined
      ? null
      : new EmailChannel({
          smtpUrl: config.smtpUrl,
          from: config.smtpFrom,
          timeoutMs: Math.floor(config.notifications.leaseMs / 2),
        });
  const sms = config.smsGatewayUrl === undefined ? null : new SmsChannel(config.smsGatewayUrl);
  const worker = new NotificationWorker(
    {
      store: new TypeormOutboxStore(deps.dataSource.manager),
      channels: { email, sms },
      recordings: new SqlRecordingReader(deps.dataSource.manager),
      logger: deps.logger,
      clock: () => new Date(),
    },
    {
      workerId: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
      ...config.notifications,
      batchSize: BATCH_SIZE,
    },
  );
  worker.start();
  return {
    stop: async () => {
      await worker.stop();
      email?.close();
    },
  };
}
