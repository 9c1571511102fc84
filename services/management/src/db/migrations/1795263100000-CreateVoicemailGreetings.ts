import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVoicemailGreetings1795263100000 implements MigrationInterface {
  name = 'CreateVoicemailGreetings1795263100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "voicemail_greetings" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "customer_id" bigint NOT NULL,
        "name" varchar(100) NOT NULL,
        "record_pin" char(6) NOT NULL,
        "sounddata" bytea,
        "datalength" integer,
        "created" timestamptz NOT NULL DEFAULT now(),
        "recorded" timestamptz,
        CONSTRAINT "PK_voicemail_greetings" PRIMARY KEY ("id"),
        CONSTRAINT "FK_voicemail_greetings_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
        CONSTRAINT "FK_voicemail_greetings_customer" FOREIGN KEY ("customer_id")
          REFERENCES "customers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_voicemail_greetings_unrecorded_pin" ON "voicemail_greetings" ("record_pin") WHERE "sounddata" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_voicemail_greetings_customer" ON "voicemail_greetings" ("customer_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_voicemail_greetings_customer"`);
    await queryRunner.query(`DROP INDEX "UQ_voicemail_greetings_unrecorded_pin"`);
    await queryRunner.query(`DROP TABLE "voicemail_greetings"`);
  }
}
