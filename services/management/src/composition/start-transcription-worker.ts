import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { PollingWorker, type Logger } from '@trackline/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { SqlTranscriptionContextReader } from '../call-intelligence/transcription-context.reader';
import { TypeormTranscriptionJobsStore } from '../call-intelligence/transcription-jobs.store';
import {
  TranscriptionWorker,
  type TranscriptionCounters,
  type TranscriptWriteStores,
} from '../call-intelligence/transcription-worker';
import { TypeormTranscriptsStore } from '../call-intelligence/transcripts.store';
import type { ManagementConfig } from '../config/management-config';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { openWorkerDatabase } from './management-connections';
import { composeCallRecordingAudio } from './call-recordings-composition';
import { conversationRecordingFetcher } from '../telephony/twilio/create-twilio-telephony';
import { storesOn } from './stores-on-manager';

export interface TranscriptionWorkerSetup {
  dataSource: DataSource;
  config: Pick<ManagementConfig, 'stt' | 'transcription' | 'notifications' | 'twilio'>;
  workerId: string;
  counters: TranscriptionCounters;
  logger: Logger;
  clock?: () => Date;
}

/** The worker on a DataSource, its settings from the config (docs/configuration.md, Call intelligence). */
export function createTranscriptionWorker(setup: TranscriptionWorkerSetup): TranscriptionWorker {
  const { dataSource, config } = setup;
  return new TranscriptionWorker(
    {
      queue: new TypeormTranscriptionJobsStore(dataSource.manager),
      contexts: new SqlTranscriptionContextReader(dataSource.manager),
      audio: composeCallRecordingAudio(
        dataSource.manager,
        conversationRecordingFetcher(config),
        setup.clock ?? (() => new Date()),
      ),
      writes: typeormUnitOfWork(dataSource, transcriptWriteStores),
      counters: setup.counters,
      log: setup.logger.child({ component: 'transcription', worker: setup.workerId }),
    },
    {
      worker: setup.workerId,
      engine: config.stt,
      concurrency: config.stt?.concurrency ?? 1,
      leaseMs: config.notifications.leaseMs,
      maxAttempts: config.transcription.maxAttempts,
      baseDelayMs: config.transcription.baseDelayMs,
    },
  );
}

function transcriptWriteStores(manager: EntityManager): TranscriptWriteStores {
  const stores = storesOn(manager);
  return {
    records: stores.cdrOutcomes,
    webhooks: stores.webhookEvents,
    conversions: stores.conversions,
    transcripts: new TypeormTranscriptsStore(manager),
    jobs: new TypeormTranscriptionJobsStore(manager),
  };
}

export interface RunningTranscriptionWorker {
  stop(): Promise<void>;
}

/** Starts the worker's loop on a pool of its own (composition/management-connections.ts). */
export async function startTranscriptionWorker(
  config: Pick<
    ManagementConfig,
    'databaseUrl' | 'databasePreparedStatements' | 'stt' | 'transcription' | 'notifications' | 'twilio'
  >,
  counters: TranscriptionCounters,
  logger: Logger,
): Promise<RunningTranscriptionWorker> {
  const dataSource = await openWorkerDatabase(config, 'transcription');
  const workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const worker = createTranscriptionWorker({ dataSource, config, workerId, counters, logger });
  const log = logger.child({ component: 'transcription' });
  const concurrency = config.stt?.concurrency ?? 1;
  const loop = new PollingWorker({
    name: 'transcription worker',
    // A full round may have left more due: another at once; else the poll interval.
    round: async () => ((await worker.round(new Date())) >= concurrency ? 'again' : 'idle'),
    idleMs: config.transcription.pollMs,
    onError: (error, failures, retryInMs) =>
      log.error({ err: error, failures, retryInMs }, 'transcription round failed; retrying'),
    onRecovered: (failures) => log.info({ failures }, 'transcription rounds work again'),
  });
  loop.start();
  return {
    stop: async () => {
      await loop.stop();
      await dataSource.destroy();
    },
  };
}
