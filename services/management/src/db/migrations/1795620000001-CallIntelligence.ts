import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Call intelligence (docs/call-intelligence.md): each partner's settings (recording answered calls,
 * the consent announcement, transcription, automatic outcomes, redaction) and classification rules,
 * each overridable per source; the answered calls' recordings; the transcription queue, worked off
 * by leases (db/leased-queue.ts); and the transcripts, redacted before they are written.
 */
export class CallIntelligence1795620000001 implements MigrationInterface {
  name = 'CallIntelligence1795620000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "partners"
        ADD "call_intelligence" jsonb NOT NULL DEFAULT '{}',
        ADD "classification_rules" jsonb`);
    await queryRunner.query(`
      ALTER TABLE "sources"
        ADD "call_intelligence" jsonb,
        ADD "classification_rules" jsonb`);
    // No foreign keys to cdrs (partitioned, keyed with its start): rows name their record and its
    // start, and go with it on retention and erasure (data-lifecycle).
    await queryRunner.query(`
      CREATE TABLE "call_recordings" (
        "cdr_id" bigint NOT NULL,
        "partner_id" bigint NOT NULL,
        "cdr_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "provider_sid" character varying(64) NOT NULL,
        "provider_url" character varying(2048) NOT NULL,
        "channels" smallint NOT NULL DEFAULT 1,
        "duration_seconds" integer,
        "audio" bytea,
        "content_type" character varying(64),
        "fetched_at" TIMESTAMP WITH TIME ZONE,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_call_recordings" PRIMARY KEY ("cdr_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_call_recordings_partner" ON "call_recordings" ("partner_id", "cdr_start")`,
    );
    await queryRunner.query(`
      CREATE TABLE "transcription_jobs" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "cdr_id" bigint NOT NULL,
        "cdr_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "recording" character varying(16) NOT NULL,
        "status" character varying(8) NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "last_attempt_at" TIMESTAMP WITH TIME ZONE,
        "last_error" text,
        "locked_by" character varying(200),
        "locked_until" TIMESTAMP WITH TIME ZONE,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "sent_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_transcription_jobs" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_transcription_jobs_cdr" UNIQUE ("cdr_id"),
        CONSTRAINT "CHK_transcription_jobs_status" CHECK ("status" IN ('pending', 'sending', 'sent', 'dead')),
        CONSTRAINT "CHK_transcription_jobs_recording" CHECK ("recording" IN ('voicemail', 'conversation'))
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_transcription_jobs_due" ON "transcription_jobs" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_transcription_jobs_lease" ON "transcription_jobs" ("locked_until") WHERE "status" = 'sending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_transcription_jobs_partner" ON "transcription_jobs" ("partner_id", "cdr_start")`,
    );
    await queryRunner.query(`
      CREATE TABLE "transcripts" (
        "cdr_id" bigint NOT NULL,
        "partner_id" bigint NOT NULL,
        "cdr_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "status" character varying(8) NOT NULL,
        "language" character varying(32),
        "duration_seconds" numeric(10,2),
        "model" character varying(100),
        "text" text,
        "segments" jsonb,
        "classification" character varying(20),
        "reasons" jsonb,
        "keywords" jsonb,
        "error" character varying(500),
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_transcripts" PRIMARY KEY ("cdr_id"),
        CONSTRAINT "CHK_transcripts_status" CHECK ("status" IN ('pending', 'done', 'failed'))
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_transcripts_partner" ON "transcripts" ("partner_id", "cdr_start")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "transcripts"`);
    await queryRunner.query(`DROP TABLE "transcription_jobs"`);
    await queryRunner.query(`DROP TABLE "call_recordings"`);
    await queryRunner.query(
      `ALTER TABLE "sources" DROP COLUMN "classification_rules", DROP COLUMN "call_intelligence"`,
    );
    await queryRunner.query(
      `ALTER TABLE "partners" DROP COLUMN "classification_rules", DROP COLUMN "call_intelligence"`,
    );
  }
}
