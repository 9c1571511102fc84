import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePricingModels1795263000000 implements MigrationInterface {
  name = 'CreatePricingModels1795263000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "pricing_models" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "partner_id" bigint NOT NULL,
        "name" varchar(100) NOT NULL,
        "type" varchar(1) NOT NULL,
        "unique_caller_time" bigint NOT NULL,
        "conditions" jsonb NOT NULL,
        "created" timestamptz NOT NULL DEFAULT now(),
        "modified" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_pricing_models" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_pricing_models_type" CHECK ("type" = '0'),
        CONSTRAINT "FK_pricing_models_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
      )`);
    await queryRunner.query(`CREATE INDEX "IX_pricing_models_partner" ON "pricing_models" ("partner_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IX_pricing_models_partner"`);
    await queryRunner.query(`DROP TABLE "pricing_models"`);
  }
}
