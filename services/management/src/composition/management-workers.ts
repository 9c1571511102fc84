import type { Logger } from '@trackline/platform';
import type { ManagementConfig } from '../config/management-config';
import type { DataLifecycleObserver } from '../data-lifecycle/data-lifecycle.job';
import { startDataLifecycle } from './start-data-lifecycle';
import { startMonthlyReportSchedule } from './start-monthly-report-schedule';
import type { PoolExhaustionObserver } from '../pool-telemetry/pool-telemetry.rollup';
import { startPoolTelemetry } from './start-pool-telemetry';
import type { OutboxBell } from '../db/outbox-bell';
import { startDeliveryThread } from './delivery-thread-host';
import { startTranscriptionWorker } from './start-transcription-worker';
import type { TranscriptionCounters } from '../call-intelligence/transcription-worker';

// Composition root, the background work beside the HTTP app (docs/architecture.md, Composition).
// Each worker opens its own pool (composition/management-connections.ts); the outbox deliveries
// run on a thread of their own (composition/delivery-thread-host.ts); the customer-seen consumer
// runs inside the HTTP app, on the app's stores.

export interface RunningWorkers {
  /**
   * Stops the report schedule, the delivery thread (notifications, webhooks, conversions), the
   * data lifecycle job, the pool telemetry rollup and the transcription worker, in that order.
   */
  stop(): Promise<void>;
}

/** Everything the service process runs besides answering requests. */
export async function startManagementWorkers(deps: {
  config: ManagementConfig;
  logger: Logger;
  observer: DataLifecycleObserver & PoolExhaustionObserver;
  /** The same bell the app's call ingestion rings (db/outbox-bell.ts), passed on to the delivery thread. */
  bell: OutboxBell;
  /** The environment the delivery thread configures itself from: the one `config` was read from. */
  env: NodeJS.ProcessEnv;
  /** The delivery thread ended on an error of its own. */
  onDeliveryThreadCrash: (error: Error) => void;
  /** What the transcription worker counts (the app's metrics). */
  transcription: TranscriptionCounters;
}): Promise<RunningWorkers> {
  const { config, logger, observer } = deps;
  const deliveries = await startDeliveryThread({
    bell: deps.bell,
    logger,
    env: deps.env,
    onCrash: deps.onDeliveryThreadCrash,
  });
  const reports = await startMonthlyReportSchedule({ config, logger });
  const lifecycle = await startDataLifecycle({ config, logger, observer });
  const poolTelemetry = await startPoolTelemetry({ config, logger, observer });
  const transcription = await startTranscriptionWorker(config, deps.transcription, logger);
  return {
    stop: () =>
      Promise.resolve(reports?.stop())
        .finally(() => deliveries.stop())
        .finally(() => lifecycle.stop())
        .finally(() => poolTelemetry.stop())
        .finally(() => transcription.stop()),
  };
}
