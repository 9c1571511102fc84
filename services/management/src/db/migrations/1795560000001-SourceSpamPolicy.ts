import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A source's own spam policy and threshold (docs/spam.md, Per source). Null: the partner's
 * applies, so every existing source keeps behaving as before. A threshold needs a policy.
 */
export class SourceSpamPolicy1795560000001 implements MigrationInterface {
  name = 'SourceSpamPolicy1795560000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "sources"
        ADD COLUMN "spam_policy" character varying(16),
        ADD COLUMN "spam_threshold" smallint,
        ADD CONSTRAINT "CHK_sources_spam_policy" CHECK ("spam_policy" IN ('allow', 'challenge', 'voicemail', 'reject')),
        ADD CONSTRAINT "CHK_sources_spam_threshold" CHECK ("spam_threshold" IS NULL OR ("spam_threshold" BETWEEN 0 AND 100 AND "spam_policy" IS NOT NULL))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "sources"
        DROP CONSTRAINT "CHK_sources_spam_threshold",
        DROP CONSTRAINT "CHK_sources_spam_policy",
        DROP COLUMN "spam_threshold",
        DROP COLUMN "spam_policy"`);
  }
}
