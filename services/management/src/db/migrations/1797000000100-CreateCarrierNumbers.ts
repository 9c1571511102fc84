import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Buying and releasing tracking numbers at the partner's carrier (docs/carrier-numbers.md): each
 * partner's carrier account (the auth token apart in `secrets`), the purchases written before the
 * carrier is asked (the reconciler finishes unfinished ones), and the numbers a partner released,
 * quarantined for it.
 */
export class CreateCarrierNumbers1797000000100 implements MigrationInterface {
  name = 'CreateCarrierNumbers1797000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "carrier_accounts" (
        "partner_id" bigint NOT NULL,
        "account_sid" character varying(34) NOT NULL,
        "base_url" character varying(500) NOT NULL,
        "secrets" jsonb NOT NULL,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_carrier_accounts" PRIMARY KEY ("partner_id"),
        CONSTRAINT "FK_carrier_accounts_partner" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT
      )`);
    await queryRunner.query(`
      CREATE TABLE "carrier_purchases" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "e164" character varying(16) NOT NULL,
        "kind" text NOT NULL,
        "friendly_name" character varying(64) NOT NULL,
        "sid" character varying(34),
        "state" text NOT NULL,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL,
        "modified" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_carrier_purchases" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_carrier_purchases_state" CHECK ("state" IN ('intent', 'bought', 'done', 'abandoned')),
        CONSTRAINT "CHK_carrier_purchases_kind" CHECK ("kind" IN ('pool', 'static')),
        CONSTRAINT "FK_carrier_purchases_partner" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_carrier_purchases_friendly_name" ON "carrier_purchases" ("friendly_name")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_carrier_purchases_partner_state" ON "carrier_purchases" ("partner_id", "state")`,
    );
    await queryRunner.query(`
      CREATE TABLE "number_quarantines" (
        "partner_id" bigint NOT NULL,
        "e164" character varying(16) NOT NULL,
        "released_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "until" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_number_quarantines" PRIMARY KEY ("partner_id", "e164"),
        CONSTRAINT "FK_number_quarantines_partner" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "number_quarantines"`);
    await queryRunner.query(`DROP TABLE "carrier_purchases"`);
    await queryRunner.query(`DROP TABLE "carrier_accounts"`);
  }
}
