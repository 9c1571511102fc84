import type { EntityManager } from 'typeorm';
import type { CallClass, ClassificationReason } from '@trackline/domain';
import { recordCdrChange, type CdrChange } from '../cdrs/cdr-changes';

/** `none` without a transcript row: no recording, transcription off, or not yet taken up by the worker. */
export type TranscriptStatus = 'none' | 'pending' | 'done' | 'failed';

export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
  /** caller or answerer, for a dual-channel recording; absent for a single channel. */
  channel?: 'caller' | 'answerer';
}

/** A stored transcript: redacted before it was written (docs/call-intelligence.md, Redaction). */
export interface Transcript {
  cdrId: string;
  partnerId: string;
  cdrStart: Date;
  status: Exclude<TranscriptStatus, 'none'>;
  language: string | null;
  durationSeconds: string | null;
  model: string | null;
  text: string | null;
  segments: TranscriptSegment[];
  classification: CallClass | null;
  reasons: ClassificationReason[];
  keywords: string[];
  /** Why it failed, when it did. */
  error: string | null;
  modified: Date;
}

export type TranscriptRecord = Pick<Transcript, 'cdrId' | 'partnerId' | 'cdrStart'>;

export interface DoneTranscript {
  language: string | null;
  durationSeconds: number;
  model: string;
  text: string;
  segments: TranscriptSegment[];
  classification: CallClass;
  reasons: ClassificationReason[];
  keywords: string[];
}

const COLUMNS = `"cdr_id"::text AS "cdr_id", "partner_id"::text AS "partner_id", "cdr_start", "status",
  "language", "duration_seconds"::text AS "duration_seconds", "model", "text", "segments",
  "classification", "reasons", "keywords", "error", "modified"`;

type Row = Record<string, unknown>;

/** Reads and writes "transcripts"; every write is a whole state, idempotent on repeats. */
export class TypeormTranscriptsStore {
  constructor(private readonly manager: EntityManager) {}

  /** `pending` while queued; a transcript already done or failed is left as it is. */
  async markPending(record: TranscriptRecord): Promise<void> {
    await this.manager.query(
      `INSERT INTO "transcripts" ("cdr_id", "partner_id", "cdr_start", "status") VALUES ($1, $2, $3, 'pending')
       ON CONFLICT ("cdr_id") DO NOTHING`,
      [record.cdrId, record.partnerId, record.cdrStart],
    );
  }

  async saveDone(record: TranscriptRecord, done: DoneTranscript): Promise<void> {
    await this.manager.query(
      `INSERT INTO "transcripts" ("cdr_id", "partner_id", "cdr_start", "status", "language",
         "duration_seconds", "model", "text", "segments", "classification", "reasons", "keywords")
       VALUES ($1, $2, $3, 'done', $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb, $11::jsonb)
       ON CONFLICT ("cdr_id") DO UPDATE SET "status" = 'done', "language" = EXCLUDED."language",
         "duration_seconds" = EXCLUDED."duration_seconds", "model" = EXCLUDED."model",
         "text" = EXCLUDED."text", "segments" = EXCLUDED."segments",
         "classification" = EXCLUDED."classification", "reasons" = EXCLUDED."reasons",
         "keywords" = EXCLUDED."keywords", "error" = NULL, "modified" = now()`,
      [
        record.cdrId,
        record.partnerId,
        record.cdrStart,
        done.language,
        done.durationSeconds.toFixed(2),
        done.model,
        done.text,
        JSON.stringify(done.segments),
        done.classification,
        JSON.stringify(done.reasons),
        JSON.stringify(done.keywords),
      ],
    );
    await recordCdrChange(this.manager, [changeOf(record)]);
  }

  async saveFailed(record: TranscriptRecord, error: string): Promise<void> {
    await this.manager.query(
      `INSERT INTO "transcripts" ("cdr_id", "partner_id", "cdr_start", "status", "error")
       VALUES ($1, $2, $3, 'failed', $4)
       ON CONFLICT ("cdr_id") DO UPDATE SET "status" = 'failed', "error" = EXCLUDED."error", "modified" = now()`,
      [record.cdrId, record.partnerId, record.cdrStart, error.slice(0, 500)],
    );
    await recordCdrChange(this.manager, [changeOf(record)]);
  }

  async find(partnerId: string, cdrId: string): Promise<Transcript | null> {
    const rows: Row[] = await this.manager.query(
      `SELECT ${COLUMNS} FROM "transcripts" WHERE "partner_id" = $1 AND "cdr_id" = $2`,
      [partnerId, cdrId],
    );
    return rows[0] === undefined ? null : toTranscript(rows[0]);
  }
}

/** A transcript done or failed changes its record's `transcript_status` (docs/cdrs.md, Change feed). */
function changeOf(record: TranscriptRecord): CdrChange {
  return { partnerId: record.partnerId, cdrId: record.cdrId, start: record.cdrStart, kind: 'transcript' };
}

function toTranscript(row: Row): Transcript {
  return {
    cdrId: row.cdr_id as string,
    partnerId: row.partner_id as string,
    cdrStart: row.cdr_start as Date,
    status: row.status as Transcript['status'],
    language: (row.language as string | null) ?? null,
    durationSeconds: (row.duration_seconds as string | null) ?? null,
    model: (row.model as string | null) ?? null,
    text: (row.text as string | null) ?? null,
    segments: (row.segments as TranscriptSegment[] | null) ?? [],
    classification: (row.classification as CallClass | null) ?? null,
    reasons: (row.reasons as ClassificationReason[] | null) ?? [],
    keywords: (row.keywords as string[] | null) ?? [],
    error: (row.error as string | null) ?? null,
    modified: row.modified as Date,
  };
}
