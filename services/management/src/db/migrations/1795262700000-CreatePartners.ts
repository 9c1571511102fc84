import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePartners1795262700000 implements MigrationInterface {
  name = 'CreatePartners1795262700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "partners" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "name" text NOT NULL,
        "digest_username" text NOT NULL,
        "ha1_md5" text NOT NULL,
        "ha1_sha256" text NOT NULL,
        "signing_secret" text NOT NULL,
        "allow_ips" text array NOT NULL DEFAULT '{}',
        "country" text NOT NULL DEFAULT 'NO',
        "time_zone" text NOT NULL DEFAULT 'Europe/Oslo',
        "dni_session_ttl_seconds" integer NOT NULL DEFAULT 1800,
        "dni_hold_back_seconds" integer NOT NULL DEFAULT 600,
        "dni_on_exhausted" text NOT NULL DEFAULT 'recycle',
        "dni_fallback_number" text,
        "show_full_anum" boolean NOT NULL DEFAULT false,
        "created" timestamptz NOT NULL DEFAULT now(),
        "modified" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_partners" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_partners_name" UNIQUE ("name"),
        CONSTRAINT "UQ_partners_digest_username" UNIQUE ("digest_username"),
        CONSTRAINT "CHK_partners_dni_on_exhausted" CHECK ("dni_on_exhausted" IN ('recycle', 'original'))
      )`);
    await queryRunner.query(`
      CREATE TABLE "partner_custom_fields" (
        "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "partner_id" bigint NOT NULL,
        "entity" text NOT NULL,
        "field" text NOT NULL,
        CONSTRAINT "PK_partner_custom_fields" PRIMARY KEY ("id"),
        CONSTRAINT "UQ_partner_custom_fields_partner_entity_field" UNIQUE ("partner_id", "entity", "field"),
        CONSTRAINT "CHK_partner_custom_fields_entity" CHECK ("entity" IN ('customer', 'source')),
        CONSTRAINT "FK_partner_custom_fields_partner" FOREIGN KEY ("partner_id")
          REFERENCES "partners" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "partner_custom_fields"`);
    await queryRunner.query(`DROP TABLE "partners"`);
  }
}
