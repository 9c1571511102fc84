import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCampaigns1795263200000 implements MigrationInterface {
  name = 'CreateCampaigns1795263200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "campaigns" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "customer_id" bigint NOT NULL,
        "pricing_model_id" uuid NOT NULL,
        "name" varchar(100) NOT NULL,
        "partner_campaign_id" varchar(45),
        "email" varchar(150),
        "smsnumber" varchar(16),
        "vm_greeting_id" bigint,
        "notify_on_missed_call" boolean NOT NULL DEFAULT false,
        "notify_on_new_voicemail" boolean NOT NULL DEFAULT false,
        "vm_divert_all" boolean NOT NULL DEFAULT false,
        "vm_divert_busy" boolean NOT NULL DEFAULT false,
        "vm_divert_noanswer" boolean NOT NULL DEFAULT false,
        "state" varchar(1) NOT NULL DEFAULT '0',
        "created" timestamptz NOT NULL DEFAULT now(),
        "expire" timestamptz,
        "modified" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_campaigns" PRIMARY KEY ("id"),
        CONSTRAINT "CHK_campaigns_state" CHECK ("state" IN ('0', '1', '2')),
        CONSTRAINT "FK_campaigns_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
        CONSTRAINT "FK_campaigns_customer" FOREIGN KEY ("customer_id")
          REFERENCES "customers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_campaigns_pricing_model" FOREIGN KEY ("pricing_model_id")
          REFERENCES "pricing_models" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
        CONSTRAINT "FK_campaigns_vm_greeting" FOREIGN KEY ("vm_greeting_id")
          REFERENCES "voicemail_greetings" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE INDEX "IX_campaigns_partner_customer" ON "campaigns" ("partner_id", "customer_id")`,
    );
    await queryRunner.query(`CREATE INDEX "IX_campaigns_pricing_model" ON "campaigns" ("pricing_model_id")`);
    await queryRunner.query(`CREATE INDEX "IX_campaigns_vm_greeting" ON "campaigns" ("vm_greeting_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IX_campaigns_vm_greeting"`);
    await queryRunner.query(`DROP INDEX "IX_campaigns_pricing_model"`);
    await queryRunner.query(`DROP INDEX "IX_campaigns_partner_customer"`);
    await queryRunner.query(`DROP TABLE "campaigns"`);
  }
}
