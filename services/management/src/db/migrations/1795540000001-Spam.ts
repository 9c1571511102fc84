import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spam and robocalls (docs/spam.md): each record's STIR/SHAKEN verification, score, reasons and
 * verdict, and the partner's re-mark; the partner's policy and threshold; its block and allow
 * lists. Record columns are added on the partitioned parent, so every month's partition has them;
 * null (not judged) for records stored before.
 */
export class Spam1795540000001 implements MigrationInterface {
  name = 'Spam1795540000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "cdrs"
        ADD COLUMN "stir_verstat" character varying(40),
        ADD COLUMN "spam_score" smallint,
        ADD COLUMN "spam_reasons" character varying(200),
        ADD COLUMN "spam" boolean NOT NULL DEFAULT false,
        ADD COLUMN "spam_marked" boolean`);
    await queryRunner.query(`
      ALTER TABLE "partners"
        ADD COLUMN "spam_policy" character varying(16) NOT NULL DEFAULT 'allow',
        ADD COLUMN "spam_threshold" smallint NOT NULL DEFAULT 70,
        ADD CONSTRAINT "CHK_partners_spam_policy" CHECK ("spam_policy" IN ('allow', 'challenge', 'voicemail', 'reject')),
        ADD CONSTRAINT "CHK_partners_spam_threshold" CHECK ("spam_threshold" BETWEEN 0 AND 100)`);
    await queryRunner.query(`
      CREATE TABLE "spam_numbers" (
        "partner_id" bigint NOT NULL,
        "number" character varying(20) NOT NULL,
        "list" character varying(8) NOT NULL,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_spam_numbers" PRIMARY KEY ("partner_id", "number"),
        CONSTRAINT "CHK_spam_numbers_list" CHECK ("list" IN ('block', 'allow'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "spam_numbers"`);
    await queryRunner.query(`
      ALTER TABLE "partners"
        DROP CONSTRAINT "CHK_partners_spam_threshold",
        DROP CONSTRAINT "CHK_partners_spam_policy",
        DROP COLUMN "spam_threshold",
        DROP COLUMN "spam_policy"`);
    await queryRunner.query(`
      ALTER TABLE "cdrs"
        DROP COLUMN "spam_marked",
        DROP COLUMN "spam",
        DROP COLUMN "spam_reasons",
        DROP COLUMN "spam_score",
        DROP COLUMN "stir_verstat"`);
  }
}
