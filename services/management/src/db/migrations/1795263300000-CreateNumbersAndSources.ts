import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateNumbersAndSources1795263300000 implements MigrationInterface {
  name = 'CreateNumbersAndSources1795263300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "tracking_numbers" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "e164" varchar(16) NOT NULL,
        "kind" text NOT NULL,
        "added_at" timestamptz NOT NULL,
        "held_until" timestamptz,
        "free_since" timestamptz,
        CONSTRAINT "PK_tracking_numbers" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_tracking_numbers_kind" CHECK ("kind" IN ('pool', 'static')),
        CONSTRAINT "FK_tracking_numbers_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_tracking_numbers_e164" ON "tracking_numbers" ("e164")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_tracking_numbers_partner_kind_free" ON "tracking_numbers" ("partner_id", "kind", "free_since")`,
    );
    await queryRunner.query(`
      CREATE TABLE "sources" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "customer_id" bigint NOT NULL,
        "name" varchar(100) NOT NULL,
        "media" varchar(100),
        "phonenr" varchar(16) NOT NULL,
        "destnr" varchar(16) NOT NULL,
        "campaign_id" bigint,
        "publisher_id" varchar(100),
        "email" varchar(150),
        "smsnumber" varchar(16),
        "status" text NOT NULL DEFAULT 'active',
        "class" varchar(45) NOT NULL DEFAULT 'standard',
        "activated_at" timestamptz NOT NULL,
        "expire" timestamptz,
        "closed_at" timestamptz,
        "vm_greeting_id" bigint,
        "notify_on_missed_call" boolean NOT NULL DEFAULT false,
        "notify_on_new_voicemail" boolean NOT NULL DEFAULT false,
        "vm_divert_all" boolean NOT NULL DEFAULT false,
        "vm_divert_busy" boolean NOT NULL DEFAULT false,
        "vm_divert_noanswer" boolean NOT NULL DEFAULT false,
        "alt_numbers" jsonb NOT NULL DEFAULT '[]',
        "custom_fields" jsonb NOT NULL DEFAULT '{}',
        "created" timestamptz NOT NULL DEFAULT now(),
        "modified" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_sources" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_sources_status" CHECK ("status" IN ('active', 'closed')),
        CONSTRAINT "FK_sources_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
        CONSTRAINT "FK_sources_customer" FOREIGN KEY ("customer_id")
          REFERENCES "customers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_sources_destnr" FOREIGN KEY ("destnr")
          REFERENCES "tracking_numbers" ("e164") ON DELETE RESTRICT ON UPDATE NO ACTION,
        CONSTRAINT "FK_sources_campaign" FOREIGN KEY ("campaign_id")
          REFERENCES "campaigns" ("id") ON DELETE NO ACTION ON UPDATE NO ACTION,
        CONSTRAINT "FK_sources_vm_greeting" FOREIGN KEY ("vm_greeting_id")
          REFERENCES "voicemail_greetings" ("id") ON DELETE NO ACTION ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_sources_partner_customer" ON "sources" ("partner_id", "customer_id")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_sources_destnr" ON "sources" ("destnr")`);
    await queryRunner.query(`CREATE INDEX "IDX_sources_campaign" ON "sources" ("campaign_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_sources_vm_greeting" ON "sources" ("vm_greeting_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_sources_open_destnr" ON "sources" ("destnr") WHERE "status" = 'active'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_sources_open_destnr"`);
    await queryRunner.query(`DROP INDEX "IDX_sources_vm_greeting"`);
    await queryRunner.query(`DROP INDEX "IDX_sources_campaign"`);
    await queryRunner.query(`DROP INDEX "IDX_sources_destnr"`);
    await queryRunner.query(`DROP INDEX "IDX_sources_partner_customer"`);
    await queryRunner.query(`DROP TABLE "sources"`);
    await queryRunner.query(`DROP INDEX "IDX_tracking_numbers_partner_kind_free"`);
    await queryRunner.query(`DROP INDEX "UQ_tracking_numbers_e164"`);
    await queryRunner.query(`DROP TABLE "tracking_numbers"`);
  }
}
