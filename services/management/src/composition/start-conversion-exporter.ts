import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger, StoreOutages } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import type { ManagementConfig } from '../config/management-config';
import { ConversionExporter } from '../conversions/conversion-exporter';
import { GoogleAdsUploader } from '../conversions/google-ads-uploader';
import { openWorkerDatabase } from './management-connections';
import { storesOn } from './stores-on-manager';
import type { OutboxBell } from '../db/outbox-bell';

export interface ConversionExporterSetup {
  dataSource: DataSource;
  config: Pick<ManagementConfig, 'notifications' | 'conversions'>;
  workerId: string;
  logger: Logger;
  outages?: StoreOutages<string>;
  clock?: () => Date;
}

/** The exporter on a DataSource, its settings from the config (docs/configuration.md, Conversions). */
export function createConversionExporter(setup: ConversionExporterSetup): ConversionExporter {
  const { dataSource, config } = setup;
  const clock = setup.clock ?? (() => new Date());
  const conversions = config.conversions;
  const stores = storesOn(dataSource.manager);
  return new ConversionExporter(
    {
      queue: stores.conversionOutbox,
      records: stores.cdrs,
      googleAds: new GoogleAdsUploader(
        {
          baseUrl: conversions.googleAdsBaseUrl,
          apiVersion: conversions.googleAdsApiVersion,
          tokenUrl: conversions.oauthTokenUrl,
          timeoutMs: conversions.timeoutMs,
        },
        clock,
      ),
      logger: setup.logger,
      outages: setup.outages,
      clock,
    },
    {
      workerId: setup.workerId,
      maxAttempts: conversions.maxAttempts,
      baseDelayMs: conversions.baseDelayMs,
      leaseMs: config.notifications.leaseMs,
      pollMs: conversions.pollMs,
      batchSize: conversions.batchSize,
      ga4BaseUrl: conversions.ga4BaseUrl,
      timeoutMs: conversions.timeoutMs,
    },
  );
}

export interface RunningConversionExporter {
  stop(): Promise<void>;
}

/** Starts the exporter on a pool of its own (composition/management-connections.ts). */
export async function startConversionExporter(
  config: Pick<
    ManagementConfig,
    'databaseUrl' | 'databasePreparedStatements' | 'notifications' | 'conversions'
  >,
  logger: Logger,
  /** Rung by this process's transactions that queued conversions. */
  bell?: OutboxBell,
  outages?: StoreOutages<string>,
): Promise<RunningConversionExporter> {
  const dataSource = await openWorkerDatabase(config, 'conversions');
  const workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const exporter = createConversionExporter({ dataSource, config, workerId, logger, outages });
  exporter.start();
  const unlisten = bell?.listen('conversions', () => exporter.wake());
  return {
    stop: async () => {
      unlisten?.();
      await exporter.stop();
      await dataSource.destroy();
    },
  };
}
