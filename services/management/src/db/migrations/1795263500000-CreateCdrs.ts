import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCdrs1795263500000 implements MigrationInterface {
  name = 'CreateCdrs1795263500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No foreign keys to customers, sources or campaigns: a call record is history and outlives
    // what it was attributed to (a deleted customer's bill is still owed).
    await queryRunner.query(`
      CREATE TABLE "cdrs" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "call_id" varchar(128) NOT NULL,
        "partner_id" bigint NOT NULL,
        "customer_id" bigint,
        "custnr" varchar(100),
        "source_id" bigint,
        "campaign_id" bigint,
        "pricing_model_id" uuid,
        "start" timestamptz NOT NULL,
        "duration" integer NOT NULL,
        "anum" varchar(32) NOT NULL,
        "bnum" varchar(16) NOT NULL,
        "cnum" varchar(32),
        "answered" boolean NOT NULL,
        "voicemail" boolean NOT NULL,
        "anum_ndc_name" varchar(45),
        "quarantined" boolean NOT NULL,
        "commission" numeric(12,2),
        "media" varchar(100),
        "class" varchar(45),
        "expire" timestamptz,
        "publisher_id" varchar(100),
        "cli_id" varchar(100),
        "order_id" varchar(100),
        "session_id" varchar(100),
        "tracking_id" varchar(100),
        "full_url" text,
        "full_referrer" text,
        "parameters" jsonb,
        "recording" bytea,
        "timestamp" timestamptz NOT NULL,
        CONSTRAINT "PK_cdrs" PRIMARY KEY ("id"),
        CONSTRAINT "FK_cdrs_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_cdrs_call_id" ON "cdrs" ("call_id")`);
    // The statistics page: equality on partner and customer, range and order on start, id as tiebreak.
    await queryRunner.query(
      `CREATE INDEX "IDX_cdrs_partner_customer_start" ON "cdrs" ("partner_id", "customer_id", "start", "id")`,
    );
    // The unique-caller rule looks up the caller's latest lead in a campaign.
    await queryRunner.query(
      `CREATE INDEX "IDX_cdrs_campaign_anum_leads" ON "cdrs" ("campaign_id", "anum", "start") WHERE "commission" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "cdrs"`);
  }
}
