import type { Logger, StoreOutages } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { ManagementConfig } from '../config/management-config';
import { TypeormCustomersStore } from '../customers/customers.store';
import { TypeormPartnersStore } from '../partners/partners.store';
import { TypeormWebhookDeliveriesStore } from '../webhooks/webhook-deliveries.store';
import { TypeormWebhooksStore } from '../webhooks/webhooks.store';
import { WebhookDisabling } from '../webhooks/webhook-disabling';
import { TypeormOutboxStore } from '../notifications/outbox.store';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { WebhookPayloads } from '../webhooks/webhook-payloads';
import { TypeormPoolResizesStore } from '../numbers/pool-resizes.store';
import { PoolTelemetryStore } from '../pool-telemetry/pool-telemetry.store';
import { WebhookSender } from '../webhooks/webhook-sender';
import { InsecureHosts, systemResolver, type HostResolver } from '../webhooks/webhook-url';
import { cdrsStoreOn } from './stores-on-manager';
import { webhookRecordSources } from './webhook-record-sources';

/** Enough of the answer to show why a receiver refused; the rest is never read. */
export const MAX_RESPONSE_BYTES = 4 * 1024;

export interface WebhookDispatcherSetup {
  dataSource: DataSource;
  config: Pick<ManagementConfig, 'notifications' | 'webhooks'>;
  workerId: string;
  logger: Logger;
  outages?: StoreOutages<string>;
  clock?: () => Date;
  /** Tests resolve names their own way; the service uses the system resolver. */
  resolve?: HostResolver;
}

/** The webhook dispatcher on the worker's DataSource, its settings from the config (docs/configuration.md). */
export function createWebhookDispatcher(setup: WebhookDispatcherSetup): WebhookDispatcher {
  const { dataSource, config } = setup;
  const manager = dataSource.manager;
  return new WebhookDispatcher(
    {
      queue: new TypeormWebhookDeliveriesStore(manager),
      payloads: new WebhookPayloads(
        webhookRecordSources({
          cdrs: cdrsStoreOn(manager),
          customers: new TypeormCustomersStore(manager),
          partners: new TypeormPartnersStore(manager),
          poolHours: new PoolTelemetryStore(manager),
          poolResizes: new TypeormPoolResizesStore(manager),
        }),
        new TypeormWebhooksStore(manager),
      ),
      disabler: new WebhookDisabling(
        typeormUnitOfWork(dataSource, (transaction) => ({
          webhooks: new TypeormWebhooksStore(transaction),
          deliveries: new TypeormWebhookDeliveriesStore(transaction),
          notices: new TypeormOutboxStore(transaction),
          partners: new TypeormPartnersStore(transaction),
        })),
      ),
      sender: new WebhookSender({
        insecureHosts: new InsecureHosts(config.webhooks.insecureHosts),
        resolve: setup.resolve ?? systemResolver,
        timeoutMs: config.webhooks.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      }),
      logger: setup.logger,
      outages: setup.outages,
      clock: setup.clock ?? (() => new Date()),
    },
    {
      workerId: setup.workerId,
      maxAttempts: config.webhooks.maxAttempts,
      baseDelayMs: config.webhooks.baseDelayMs,
      leaseMs: config.notifications.leaseMs,
      pollMs: config.notifications.pollMs,
      concurrency: config.webhooks.concurrency,
      perEndpoint: config.webhooks.perEndpoint,
      disableAfterMs: config.webhooks.disableAfterSeconds * 1000,
    },
  );
}
