import type { EntityManager } from 'typeorm';
import { LeasedQueue, type LeasedQueueTable } from '../db/leased-queue';

/** Which recording of a call a job works on: the voicemail on the record, or the answered call's. */
export type RecordingKind = 'voicemail' | 'conversation';

export interface TranscriptionJobToQueue {
  partnerId: string;
  cdrId: string;
  /** The record's start: its monthly partition. */
  cdrStart: Date;
  recording: RecordingKind;
}

export interface ClaimedTranscriptionJob extends TranscriptionJobToQueue {
  id: string;
  /** Including the one that starts now. */
  attempts: number;
}

/** What the transcription worker needs of the queue; every change after the claim holds only while the lease is ours. */
export interface TranscriptionQueue {
  claim(worker: string, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedTranscriptionJob[]>;
  complete(id: string, worker: string, now: Date): Promise<boolean>;
  /** Back to pending until `retryAt`, or dead when `retryAt` is null. False when the lease was lost. */
  fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean>;
}

/** The queue's state, for metrics and the operator: depth and the oldest waiting job. */
export interface TranscriptionQueueState {
  pending: number;
  dead: number;
  oldestPendingSeconds: number | null;
}

// Longer messages are cut: last_error is for a reader, not an archive. Never the transcript's text.
const MAX_ERROR_LENGTH = 500;

const TRANSCRIPTION_QUEUE: LeasedQueueTable = {
  table: 'transcription_jobs',
  claimColumns: [
    'o.partner_id::text AS partner_id',
    'o.cdr_id::text AS cdr_id',
    'o.cdr_start',
    'o.recording',
  ],
  maxErrorLength: MAX_ERROR_LENGTH,
  attemptedAtColumn: 'last_attempt_at',
};

/**
 * A job per recorded call, in the transaction that keeps the recording or its reference (docs/
 * call-intelligence.md, The queue): the job commits or rolls back with it. Once per record.
 */
export async function enqueueTranscriptionJobs(
  manager: EntityManager,
  jobs: readonly TranscriptionJobToQueue[],
): Promise<void> {
  if (jobs.length === 0) return;
  await manager.query(
    `INSERT INTO "transcription_jobs" ("partner_id", "cdr_id", "cdr_start", "recording")
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::varchar[])
     ON CONFLICT ("cdr_id") DO NOTHING`,
    [
      jobs.map((job) => job.partnerId),
      jobs.map((job) => job.cdrId),
      jobs.map((job) => job.cdrStart),
      jobs.map((job) => job.recording),
    ],
  );
}

type Row = Record<string, unknown>;

/** Reads and writes "transcription_jobs"; claims and marks through the one leased-queue helper. */
export class TypeormTranscriptionJobsStore implements TranscriptionQueue {
  private readonly queue: LeasedQueue;

  constructor(private readonly manager: EntityManager) {
    this.queue = new LeasedQueue(manager, TRANSCRIPTION_QUEUE);
  }

  async claim(
    worker: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<ClaimedTranscriptionJob[]> {
    const rows = await this.queue.claim({ worker, now, leaseUntil, limit });
    return rows.map((row) => ({
      id: row.id,
      attempts: row.attempts,
      partnerId: row.partner_id as string,
      cdrId: row.cdr_id as string,
      cdrStart: row.cdr_start as Date,
      recording: row.recording as RecordingKind,
    }));
  }

  complete(id: string, worker: string, now: Date): Promise<boolean> {
    return this.queue.complete(id, worker, { status: 'sent', now });
  }

  fail(id: string, worker: string, error: string, retryAt: Date | null): Promise<boolean> {
    return this.queue.fail(id, worker, { error, retryAt });
  }

  async state(now: Date): Promise<TranscriptionQueueState> {
    const [row]: Row[] = await this.manager.query(
      `SELECT count(*) FILTER (WHERE "status" IN ('pending', 'sending'))::int AS "pending",
              count(*) FILTER (WHERE "status" = 'dead')::int AS "dead",
              min("created") FILTER (WHERE "status" IN ('pending', 'sending')) AS "oldest"
         FROM "transcription_jobs"`,
    );
    const oldest = (row?.oldest as Date | null) ?? null;
    return {
      pending: (row?.pending as number) ?? 0,
      dead: (row?.dead as number) ?? 0,
      oldestPendingSeconds: oldest === null ? null : Math.max(0, (now.getTime() - oldest.getTime()) / 1000),
    };
  }
}
