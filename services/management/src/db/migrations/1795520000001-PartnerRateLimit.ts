import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A partner's own request budget on the partner API (docs/partner-api.md, Rate limit): null takes
 * the service's RATE_LIMIT_PER_MINUTE, 0 means no limit.
 */
export class PartnerRateLimit1795520000001 implements MigrationInterface {
  name = 'PartnerRateLimit1795520000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "partners" ADD "rate_limit_per_minute" integer`);
    await queryRunner.query(
      `ALTER TABLE "partners" ADD CONSTRAINT "CHK_partners_rate_limit_per_minute" CHECK ("rate_limit_per_minute" BETWEEN 0 AND 1000000)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "partners" DROP CONSTRAINT "CHK_partners_rate_limit_per_minute"`);
    await queryRunner.query(`ALTER TABLE "partners" DROP COLUMN "rate_limit_per_minute"`);
  }
}
