import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A partner's provider call settings (docs/telephony.md): how long a `<Dial>` rings (null: the
 * replacement service's TWILIO_RING_TIMEOUT_SECONDS) and call screening, off by default.
 */
export class AddPartnerCallSettings1795463430471 implements MigrationInterface {
  name = 'AddPartnerCallSettings1795463430471';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "partners" ADD "ring_timeout_seconds" integer`);
    await queryRunner.query(`ALTER TABLE "partners" ADD "screen_calls" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "partners" DROP COLUMN "screen_calls"`);
    await queryRunner.query(`ALTER TABLE "partners" DROP COLUMN "ring_timeout_seconds"`);
  }
}
