import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCustomers1795262800000 implements MigrationInterface {
  name = 'CreateCustomers1795262800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "customers" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "name" varchar(60) NOT NULL,
        "custnr" varchar(45) NOT NULL,
        "corporateid" varchar(255),
        "email" varchar(150),
        "dncs_class_name" varchar(255),
        "receive_monthly_report" boolean NOT NULL DEFAULT false,
        "service_caller_id" boolean NOT NULL DEFAULT false,
        "custom_fields" jsonb NOT NULL DEFAULT '{}',
        "created" timestamptz NOT NULL DEFAULT now(),
        "modified" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_customers" PRIMARY KEY ("id"),
        CONSTRAINT "FK_customers_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_customers_partner_custnr" ON "customers" ("partner_id", "custnr")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_customers_partner_custnr"`);
    await queryRunner.query(`DROP TABLE "customers"`);
  }
}
